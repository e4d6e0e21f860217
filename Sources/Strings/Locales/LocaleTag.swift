/// One of the 50 locales the chat ships in (docs/strings.md#the-50-locales), by its BCP 47 tag: `en`, `pt-BR`,
/// `zh-Hant`, `es-419`, … A `LocaleTag` can only hold one of the 50; negotiation turns any input into one.
public struct LocaleTag: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The BCP 47 tag exactly as the catalog file is named, e.g. "zh-HK".
    public let identifier: String
    /// The position in `LocaleTag.all` (0 ..< 50).
    public let index: Int

    private init(identifier: String, index: Int) {
        self.identifier = identifier
        self.index = index
    }

    /// The supported locale whose tag equals `identifier`, ignoring ASCII case and treating `_` as `-`
    /// ("pt_br" → `pt-BR`). Returns nil for anything else — use `LocaleNegotiator` to map other tags.
    public init?(_ identifier: String) {
        guard let found = LocaleTag.byLowercasedIdentifier[Self.key(identifier)] else { return nil }
        self = found
    }

    public var description: String { identifier }

    public static func < (lhs: LocaleTag, rhs: LocaleTag) -> Bool { lhs.index < rhs.index }

    /// The 50 locales, in the order of docs/strings.md#the-50-locales.
    public static let all: [LocaleTag] = identifiers.enumerated().map { LocaleTag(identifier: $1, index: $0) }

    /// English, the source language and the answer when nothing else matches.
    public static let english = all[identifiers.firstIndex(of: "en")!]

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

extension LocaleTag: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let tag = LocaleTag(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not one of the 50 locales")
        }
        self = tag
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}
