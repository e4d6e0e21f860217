/// Message fallback chains from CLDR's parent locales (ICU 72's data), never by plain truncation alone:
/// es-MX → es-419 → es → en; pt-AO → pt-PT → pt (Brazilian, our pt-BR) → en;
/// zh-Hant-MO → zh-Hant-HK (our zh-HK) → zh-Hant → en — Traditional Chinese never falls back to Simplified,
/// because CLDR makes root the parent of zh-Hant (and of every non-default script).
public enum FallbackChain {
    /// CLDR's ancestors of any BCP 47 tag, the tag itself first, root excluded, as tags:
    /// "es-MX" → ["es-MX", "es-419", "es"]; "zh-MO" → ["zh-Hant-MO", "zh-Hant-HK", "zh-Hant"];
    /// "en-GB" → ["en-GB", "en-001", "en"]. The start is the tag's language, its script when the tag names one
    /// or when the likely script is not the language's default (zh-MO is zh-Hant-MO), and its region;
    /// variants and extensions are dropped.
    /// Empty for a tag that is not well-formed. Returns in bounded time for any input, ICU's alias locales
    /// included ("no-NO", "sh", "zh-TW"): parents are read through ICU's ordinary bundle loading, never
    /// `ures_openDirect` (see `lookd_locale_explicit_parent`).
    public static func cldrAncestors(of tag: String) -> [String] {
        let normalized = LanguageTag.normalizeSeparators(Substring(tag))
        guard let canonical = LanguageTag.canonicalize(normalized) else { return [] }
        let given = LanguageTag.subtags(canonical)
        guard !given.language.isEmpty, given.language != "und", given.language != "x",
              let maximized = LanguageTag.maximize(canonical) else { return [] }
        let full = LanguageTag.subtags(maximized)
        let defaultScript = LanguageTag.maximize(given.language).map { LanguageTag.subtags($0).script } ?? nil
        var current = given.language
        // Keep a script the tag names (zh-Hans-HK must not become zh-HK, which is Traditional) or one that
        // differs from the language's default (zh-MO is zh-Hant-MO).
        if let script = given.script ?? full.script, given.script != nil || script != defaultScript {
            current += "-" + script
        }
        if let region = given.region { current += "-" + region }

        var chain: [String] = []
        while chain.count < 8, !current.isEmpty, !chain.contains(current) {
            chain.append(current)
            if let parent = LanguageTag.explicitParent(current) {
                if parent == "root" { break }
                current = parent
            } else if let dash = current.lastIndex(of: "-") {
                current = String(current[..<dash])
            } else {
                break
            }
        }
        return chain
    }

    /// The catalog chain of a supported locale, itself first, always ending in English:
    /// es-419 → [es-419, es, en]; zh-HK → [zh-HK, zh-Hant, en]; pt-PT → [pt-PT, pt-BR, en]; en → [en].
    /// A pseudo-locale's chain is itself, then English. Computed once per process.
    public static func chain(for locale: LocaleTag) -> [LocaleTag] { chains[locale.index] }

    /// The catalog chain for any tag: the chain of the locale it negotiates to (`chain(for:)`), so the chain always
    /// agrees with the negotiated locale. "es-MX" → [es-419, es, en]; "zh-Hant-MO" → [zh-HK, zh-Hant, en];
    /// "pt-AO" → [pt-PT, pt-BR, en]; "nn" → [nb, en]; "prs" (Dari, which ICU's matcher does not take for
    /// Persian) → [en], not [en, fa]; "en-XA" → [en-XA, en]; junk → [en].
    /// Returns in bounded time for any input (no ICU bundle is opened for the tag itself).
    public static func chain(forTag tag: String, negotiator: LocaleNegotiator = .shared) -> [LocaleTag] {
        chain(for: negotiator.negotiate(tag: tag))
    }

    private static func supportedAncestors(of tag: String) -> [LocaleTag] {
        var result: [LocaleTag] = []
        for ancestor in cldrAncestors(of: tag) {
            guard let maximized = LanguageTag.maximize(ancestor), let locale = bySubtags[maximized] else { continue }
            if !result.contains(locale) { result.append(locale) }
        }
        return result
    }

    /// The 50 by their maximized tags (pt-BR and pt are both "pt-Latn-BR"; zh-HK and zh-Hant-HK are
    /// "zh-Hant-HK"). Plus "no": CLDR 42 makes Norwegian Bokmål (nb) a child of "no", and our Norwegian
    /// catalog is nb.
    private static let bySubtags: [String: LocaleTag] = {
        var table: [String: LocaleTag] = [:]
        for locale in LocaleTag.all {
            if let maximized = LanguageTag.maximize(locale.identifier) { table[maximized] = locale }
        }
        if let norwegian = LanguageTag.maximize("no"), let bokmal = LocaleTag("nb") { table[norwegian] = bokmal }
        return table
    }()

    private static let chains: [[LocaleTag]] = LocaleTag.allIncludingPseudo.map { locale in
        if locale.isPseudo { return [locale, .english] }
        var result = supportedAncestors(of: locale.identifier)
        if result.first != locale { result.insert(locale, at: 0) }
        if !result.contains(.english) { result.append(.english) }
        return result
    }
}
