import CICU

/// Facts about one of the 50 locales, from ICU: direction, native name, plural categories.
/// Computed once per process for all 50 (`LocaleInfo.of(_:)`).
public struct LocaleInfo: Sendable, Hashable {
    public let locale: LocaleTag
    /// `.rightToLeft` for ar, he, fa, ur (ICU's `Locale::isRightToLeft`).
    public let direction: TextDirection
    /// The locale's name in its own language, e.g. "Deutsch", "العربية" (ICU `getDisplayName(self)`).
    public let nativeName: String
    /// Every CLDR cardinal plural category of the locale, in CLDR order (zero one two few many other).
    public let pluralCategories: [PluralCategory]
    /// The categories that the integers 0…1,000 select (e.g. `fr` has `many`, but only for large numbers).
    public let integerPluralCategories: [PluralCategory]

    /// The facts for a supported locale. Never fails: ICU has data for all 50.
    public static func of(_ locale: LocaleTag) -> LocaleInfo { table[locale.index] }

    /// The facts for all 50, in `LocaleTag.all` order.
    public static var all: [LocaleInfo] { table }

    private static let table: [LocaleInfo] = LocaleTag.all.map { locale in
        let rtl = ICUText.withUTF8(locale.identifier) { lookd_locale_is_rtl($0, $1) } == 1
        let name = ICUText.withUTF8(locale.identifier) { bytes, length in
            ICUText.string(capacity: 64) { lookd_locale_native_name(bytes, length, $0, $1) }
        } ?? locale.identifier
        let rules = PluralRules.forLocale(locale)
        return LocaleInfo(
            locale: locale,
            direction: rtl ? .rightToLeft : .leftToRight,
            nativeName: name,
            pluralCategories: rules?.categories ?? [.other],
            integerPluralCategories: rules?.integerCategories ?? [.other]
        )
    }
}
