import Strings

/// The `values-…` resource directories Android resolves for each of the 50 locales.
///
/// - English is the default `values/` (the fallback for every language without its own directory).
/// - A region is `-r` + region (`pt-rBR`, `pt-rPT`, `fr-rCA`, `zh-rHK`); a script or a numeric region needs
///   the BCP 47 form `b+…` (Android 7+): `b+zh+Hans`, `b+zh+Hant`, `b+es+419`.
/// - Hebrew and Indonesian are written twice, under the legacy codes Java's `Locale` reports on Android
///   (`iw`, `in`) and under the current ones (`he`, `id`), so every release finds them; Norwegian Bokmål is `nb`.
/// - The pseudo-locales (written only by `lookd export --pseudo`) get Android's own pseudo-locale qualifiers,
///   `values-en-rXA` and `values-ar-rXB`; reading never maps those back (they are not catalogs).
public enum AndroidQualifier {
    /// The directories of `locale`, the first being the one read back.
    public static func directories(for locale: LocaleTag) -> [String] {
        switch locale.identifier {
        case "en": ["values"]
        case "he": ["values-iw", "values-he"]
        case "id": ["values-in", "values-id"]
        case "zh-Hans": ["values-b+zh+Hans"]
        case "zh-Hant": ["values-b+zh+Hant"]
        case "es-419": ["values-b+es+419"]
        default:
            if let dash = locale.identifier.firstIndex(of: "-") {
                ["values-" + locale.identifier[..<dash] + "-r" + locale.identifier[locale.identifier.index(after: dash)...]]
            } else {
                ["values-" + locale.identifier]
            }
        }
    }

    /// The locale of a directory name (`values-b+zh+Hant` → zh-Hant), or nil when it is not one of the 50's
    /// directories (other qualifiers such as `values-night` are not translations).
    public static func locale(ofDirectory name: String) -> (locale: LocaleTag, isPrimary: Bool)? {
        byDirectory[name]
    }

    private static let byDirectory: [String: (locale: LocaleTag, isPrimary: Bool)] = {
        var map: [String: (locale: LocaleTag, isPrimary: Bool)] = [:]
        for locale in LocaleTag.all {
            for (position, directory) in directories(for: locale).enumerated() { map[directory] = (locale, position == 0) }
        }
        return map
    }()
}
