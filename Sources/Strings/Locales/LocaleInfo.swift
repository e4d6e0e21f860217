import CICU

/// Facts about one of the 50 locales or a pseudo-locale, from ICU: direction, native name, plural categories.
/// Computed once per process for all 52 (`LocaleInfo.of(_:)`). Thread-safe (immutable values).
public struct LocaleInfo: Sendable, Hashable {
    public let locale: LocaleTag
    /// `.rightToLeft` for ar, he, fa, ur and ar-XB (ICU's `Locale::isRightToLeft`).
    public let direction: TextDirection
    /// True for the pseudo-locales en-XA and ar-XB (generated from English for layout testing; see
    /// `PseudoLocalization`). Their plural categories are English's.
    public let isPseudo: Bool
    /// The locale's name in its own language, e.g. "Deutsch", "العربية" (ICU `getDisplayName(self)`); for the
    /// pseudo-locales CLDR's names, "English (Pseudo-Accents)" and Arabic's name for ar-XB.
    public let nativeName: String
    /// Every CLDR cardinal plural category of the locale, in CLDR order (zero one two few many other).
    public let pluralCategories: [PluralCategory]
    /// The categories that the integers 0…1,000 select (e.g. `fr` has `many`, but only for large numbers).
    public let integerPluralCategories: [PluralCategory]

    /// The facts for a supported locale or a pseudo-locale. Never fails: ICU has data for all of them.
    public static func of(_ locale: LocaleTag) -> LocaleInfo { table[locale.index] }

    /// The facts for the 50, in `LocaleTag.all` order (no pseudo-locale).
    public static var all: [LocaleInfo] { real }

    /// The facts for the 50 then the two pseudo-locales, in `LocaleTag.allIncludingPseudo` order.
    public static var allIncludingPseudo: [LocaleInfo] { table }

    private static let real = Array(table.prefix(LocaleTag.all.count))

    private static let table: [LocaleInfo] = LocaleTag.allIncludingPseudo.map { locale in
        let rtl = ICUText.withUTF8(locale.identifier) { lookd_locale_is_rtl($0, $1) } == 1
        let name = ICUText.withUTF8(locale.identifier) { bytes, length in
            ICUText.string(capacity: 64) { lookd_locale_native_name(bytes, length, $0, $1) }
        } ?? locale.identifier
        let rules = PluralRules.forLocale(locale)
        return LocaleInfo(
            locale: locale,
            direction: rtl ? .rightToLeft : .leftToRight,
            isPseudo: locale.isPseudo,
            nativeName: name,
            pluralCategories: rules?.categories ?? [.other],
            integerPluralCategories: rules?.integerCategories ?? [.other]
        )
    }
}
