import Strings

extension CatalogContent {
    /// This content with the pseudo-locales en-XA and ar-XB added as translations, each pattern generated from
    /// the English source by `PseudoLocalization` (every key, in source order; existing entries for the two are
    /// replaced). For exports that layout testers load into an app; the pseudo-locales are never read back as
    /// catalogs (every format's import skips or refuses them). Pure; a value type.
    public func addingPseudoLocales() -> CatalogContent {
        var content = self
        for locale in LocaleTag.pseudoLocales.map(CatalogLocale.init) {
            content.translations[locale] = source.map { Translation(key: $0.key, pattern: Self.pseudoPattern($0.message, for: locale)) }
        }
        return content
    }

    /// `PseudoLocalization.pattern`, except for a message that is one select: every format splits it into one
    /// entry per case (`KEY__ARG__CASE`) and needs the translation to be the same select, so each case is
    /// pseudo-localized on its own (`{status, select, online {[Öñļîñé one]} …}`) instead of the whole message.
    static func pseudoPattern(_ english: String, for locale: CatalogLocale) -> String {
        guard let message = try? ICUMessage(parsing: english), var choice = message.wholeChoice, choice.kind == .select else {
            return PseudoLocalization.pattern(english, for: locale.known ?? .pseudoAccented)
        }
        choice.cases = choice.cases.map { branch in
            let pseudo = PseudoLocalization.pattern(branch.message.pattern, for: locale.known ?? .pseudoAccented)
            return ICUMessage.Case(key: branch.key, message: (try? ICUMessage(parsing: pseudo)) ?? branch.message)
        }
        return ICUMessage([.choice(choice)]).pattern
    }
}
