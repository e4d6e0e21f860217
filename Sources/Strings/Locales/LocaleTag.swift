/// One of the 50 locales the chat ships in (docs/strings.md#the-50-locales), by its BCP 47 tag: `en`, `pt-BR`,
/// `zh-Hant`, `es-419`, … — or one of the two pseudo-locales generated from English for layout testing
/// (`pseudoAccented` en-XA, `pseudoBidi` ar-XB; see `PseudoLocalization`). Negotiation turns any input into one of
/// the 50; a pseudo-locale only when asked for by exactly its tag (see `LocaleNegotiator`).
public struct LocaleTag: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The BCP 47 tag exactly as the catalog file is named, e.g. "zh-HK".
    public let identifier: String
    /// The position in `LocaleTag.allIncludingPseudo`: 0 ..< 50 for the 50 (their position in `all`), 50 and 51
    /// for the pseudo-locales.
    public let index: Int

    private init(identifier: String, index: Int) {
        self.identifier = identifier
        self.index = index
    }

    /// The supported locale whose tag equals `identifier`, ignoring ASCII case and treating `_` as `-`
    /// ("pt_br" → `pt-BR`). Returns nil for anything else, pseudo-locales included — use `LocaleNegotiator` to
    /// map other tags, `init(includingPseudo:)` to accept "en-XA" and "ar-XB" too.
    public init?(_ identifier: String) {
        guard let found = LocaleTag.byLowercasedIdentifier[Self.key(identifier)] else { return nil }
        self = found
    }

    /// Like `init(_:)`, but also "en-XA" and "ar-XB" (any ASCII case, `_` for `-`) give the pseudo-locales.
    public init?(includingPseudo identifier: String) {
        if let found = LocaleTag(identifier) {
            self = found
        } else if let pseudo = LocaleTag.pseudoLocales.first(where: { Self.key($0.identifier) == Self.key(identifier) }) {
            self = pseudo
        } else {
            return nil
        }
    }

    /// True for the pseudo-locales (en-XA, ar-XB): generated from English, never a catalog file, never in `all`.
    public var isPseudo: Bool { index >= LocaleTag.all.count }

    public var description: String { identifier }

    public static func < (lhs: LocaleTag, rhs: LocaleTag) -> Bool { lhs.index < rhs.index }

    /// Every tag is one of `allIncludingPseudo`, so its index alone tells tags apart: equality and hashing read the
    /// index, not the identifier's bytes (a dictionary keyed by a tag hashed the identifier on every lookup).
    public static func == (lhs: LocaleTag, rhs: LocaleTag) -> Bool { lhs.index == rhs.index }

    public func hash(into hasher: inout Hasher) { hasher.combine(index) }

    /// The 50 locales, in the order of docs/strings.md#the-50-locales.
    public static let all: [LocaleTag] = identifiers.enumerated().map { LocaleTag(identifier: $1, index: $0) }

    /// English, the source language and the answer when nothing else matches.
    public static let english = all[identifiers.firstIndex(of: "en")!]

    /// en-XA: English with accented letters, about 40 % longer, in brackets (Android's pseudo-locale of the same
    /// tag). Formats with English conventions and plural rules; left to right.
    public static let pseudoAccented = LocaleTag(identifier: "en-XA", index: identifiers.count)

    /// ar-XB: English words mirrored right to left (Android's pseudo-locale of the same tag). Formats with English
    /// conventions and plural rules; its text direction is right to left.
    public static let pseudoBidi = LocaleTag(identifier: "ar-XB", index: identifiers.count + 1)

    /// The two pseudo-locales, en-XA then ar-XB.
    public static let pseudoLocales: [LocaleTag] = [pseudoAccented, pseudoBidi]

    /// The 50 then the two pseudo-locales (52), indexed by `index`. For callers that serve or export every
    /// locale a client may select; `all` stays the 50 real ones.
    public static let allIncludingPseudo: [LocaleTag] = all + pseudoLocales

    /// The ICU locale whose conventions (numbers, dates, plural rules) format this locale's messages: English for
    /// the pseudo-locales, else the locale itself.
    var conventionsIdentifier: String { isPseudo ? LocaleTag.english.identifier : identifier }

    /// The supported tags, in the order of docs/strings.md#the-50-locales.
    static let identifiers: [String] = [
        "ar", "bn", "bg", "ca", "zh-Hans", "zh-Hant", "zh-HK", "hr", "cs", "da",
        "nl", "en", "fi", "fr", "fr-CA", "de", "el", "gu", "he", "hi",
        "hu", "id", "it", "ja", "kn", "ko", "ms", "ml", "mr", "nb",
        "or", "fa", "pl", "pt-BR", "pt-PT", "pa", "ro", "ru", "sk", "sl",
        "es", "es-419", "sv", "ta", "te", "th", "tr", "uk", "ur", "vi",
    ]

    private static let byLowercasedIdentifier: [String: LocaleTag] =
        Dictionary(uniqueKeysWithValues: all.map { (key($0.identifier), $0) })

    private static func key(_ identifier: String) -> String {
        String(identifier.lowercased().map { $0 == "_" ? "-" : $0 })
    }
}

/// Encodes as the tag text; decodes one of the 50 or a pseudo-locale tag (so every value round-trips).
extension LocaleTag: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let tag = LocaleTag(includingPseudo: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not one of the 50 locales or a pseudo-locale")
        }
        self = tag
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}
