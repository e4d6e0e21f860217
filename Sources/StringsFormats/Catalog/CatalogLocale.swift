import Strings

/// The locale of a catalog in any format: any well-formed BCP 47 tag a project ships (`en-GB`, `eu`, `nb-NO`,
/// `sr-Latn`, `zh-CN`), not only lookd's 50. The converters and the linter take every locale a real project
/// has; the 50 stay what the chat ships and what the daemon serves (`LocaleTag`). A value type.
///
/// The identifier is the tag as the file spells it, with `_` read as `-` (`zh_CN` → `zh-CN`): a round trip
/// gives back the same spelling. Ordering: lookd's 50 in their order (`LocaleTag.all`), the two pseudo-locales,
/// then every other tag alphabetically.
public struct CatalogLocale: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The BCP 47 tag, e.g. "en-GB" (the file's spelling, `_` as `-`).
    public let identifier: String

    /// A locale for `tag`, or nil when it is not a well-formed BCP 47 tag (`_` is read as `-`). The tag need not
    /// be known to ICU: `isKnownToICU` says whether it is.
    public init?(tag: String) {
        let spelled = String(tag.map { $0 == "_" ? "-" : $0 })
        guard LanguageTag.isWellFormed(spelled) else { return nil }
        identifier = spelled
    }

    /// The same locale as one of lookd's 50 (or a pseudo-locale).
    public init(_ tag: LocaleTag) {
        identifier = tag.identifier
    }

    /// English, lookd's source language.
    public static let english = CatalogLocale(.english)

    /// The `LocaleTag` of this locale when it is exactly one of lookd's 50 or a pseudo-locale (same spelling).
    public var known: LocaleTag? {
        guard let tag = LocaleTag(includingPseudo: identifier), tag.identifier == identifier else { return nil }
        return tag
    }

    /// True for en-XA and ar-XB, generated from English (never a catalog).
    public var isPseudo: Bool { known?.isPseudo ?? false }

    /// True when ICU has data for the locale's language, so its plural rules and direction are the language's.
    public var isKnownToICU: Bool { LanguageTag.hasLocaleData(identifier) }

    /// The tag whose conventions (plural rules, number formats) apply: English for the pseudo-locales.
    public var conventionsIdentifier: String { isPseudo ? "en" : identifier }

    public var description: String { identifier }

    private var rank: Int { known?.index ?? Int.max }

    public static func < (lhs: CatalogLocale, rhs: CatalogLocale) -> Bool {
        let (left, right) = (lhs.rank, rhs.rank)
        return left != right ? left < right : lhs.identifier < rhs.identifier
    }
}
