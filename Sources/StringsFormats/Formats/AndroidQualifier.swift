import Strings

/// The `values-…` resource directories Android resolves for a locale, and the locale of a directory — for any
/// locale, not only lookd's 50.
///
/// - English is the default `values/` (the fallback for every language without its own directory).
/// - A language is `values-xx` (2 or 3 letters: `values-eu`, `values-ace`); a region is `-r` + region
///   (`pt-rBR`, `zh-rCN`, `nb-rNO`); a script or a numeric region needs the BCP 47 form `b+…` (Android 7+):
///   `b+zh+Hans`, `b+sr+Latn`, `b+es+419`.
/// - Hebrew, Indonesian and Yiddish are read from, and written under, the legacy codes Java's `Locale` reports
///   on Android (`iw`, `in`, `ji`); lookd also writes `he` and `id` for its own two, so every release finds
///   them. Norwegian Bokmål is `nb`.
/// - The pseudo-locales (written only by `lookd export --pseudo`) get Android's own pseudo-locale qualifiers,
///   `values-en-rXA` and `values-ar-rXB`; reading never maps those back (they are not catalogs).
/// - A directory with any other qualifier (`values-night`, `values-de-land`, `values-v21`) is not a translation.
public enum AndroidQualifier {
    /// Android's legacy language codes and the current ones they stand for.
    private static let legacy: [String: String] = ["iw": "he", "in": "id", "ji": "yi"]

    /// The directories of `locale`, the first being the one read back.
    public static func directories(for locale: CatalogLocale) -> [String] {
        switch locale.identifier {
        case "en": return ["values"]
        case "he": return ["values-iw", "values-he"]
        case "id": return ["values-in", "values-id"]
        default: break
        }
        let parts = locale.identifier.split(separator: "-").map(String.init)
        let language = legacy.first { $0.value == parts[0] }?.key ?? parts[0]
        if parts.count == 1 { return ["values-" + language] }
        if parts.count == 2, parts[1].count == 2, parts[1].allSatisfy(\.isLetter) {
            return ["values-" + language + "-r" + parts[1]]
        }
        return ["values-b+" + ([language] + parts.dropFirst()).joined(separator: "+")]
    }

    /// The locale of a directory name (`values-b+zh+Hant` → zh-Hant, `values-zh-rCN` → zh-CN, `values-iw` → he)
    /// and whether it is the locale's primary directory (the one read back; `values-he` is secondary to
    /// `values-iw`). `values` is English; nil for `values-en` (English is `values`), for the pseudo-locales' directories and for directories with
    /// other qualifiers (`values-night`, `values-v21`, `values-de-land`), which are not translations.
    public static func locale(ofDirectory name: String) -> (locale: CatalogLocale, isPrimary: Bool)? {
        if name == "values" { return (.english, true) }
        guard name.hasPrefix("values-") else { return nil }
        let qualifiers = name.dropFirst("values-".count)
        var tag: String
        var isLegacy = false
        if qualifiers.hasPrefix("b+") {
            let parts = qualifiers.dropFirst(2).split(separator: "+", omittingEmptySubsequences: false).map(String.init)
            guard let first = parts.first, !first.isEmpty, !first.contains("-") else { return nil }
            let language = legacy[first.lowercased()] ?? first.lowercased()
            isLegacy = legacy[first.lowercased()] != nil
            tag = ([language] + parts.dropFirst()).joined(separator: "-")
        } else {
            let parts = qualifiers.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), (2...3).contains(parts[0].count), parts[0].allSatisfy({ $0.isASCII && $0.isLowercase }) else {
                return nil
            }
            let language = legacy[String(parts[0])] ?? String(parts[0])
            isLegacy = legacy[String(parts[0])] != nil
            tag = language
            if parts.count == 2 {
                let region = parts[1]
                guard region.count == 3, region.hasPrefix("r"), region.dropFirst().allSatisfy({ $0.isASCII && $0.isUppercase }) else { return nil }
                tag += "-" + region.dropFirst()
            }
        }
        guard tag != "en", let locale = CatalogLocale(tag: tag), !locale.isPseudo else { return nil }
        // lookd writes its own he and id twice; the legacy directory is the one read back.
        let isPrimary = isLegacy || !["he", "id"].contains(LanguageTag.subtags(locale.identifier).language)
        return (locale, isPrimary)
    }
}
