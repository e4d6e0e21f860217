import Strings

extension CatalogContent {
    /// These catalogs with `delivery`'s translations merged in (a one-locale delivery such as an XLIFF): each
    /// delivered locale keeps its translations for keys the delivery lacks, takes the delivered ones for the
    /// rest, in source order. Throws `ConversionError` naming each key whose delivered source text is not the
    /// current source (the translation was made for another text) or that the source does not have.
    public func merging(translationsOf delivery: CatalogContent) throws -> CatalogContent {
        let current = Dictionary(source.map { ($0.key, $0.message) }, uniquingKeysWith: { first, _ in first })
        var problems: [ConversionError.Problem] = []
        for entry in delivery.source {
            guard let message = current[entry.key] else {
                problems.append(.init(key: entry.key, reason: "not in the source catalog"))
                continue
            }
            if message != entry.message {
                problems.append(.init(key: entry.key, reason: "the delivered source text is not the current en.json message (re-export and translate again)"))
            }
        }
        if !problems.isEmpty { throw ConversionError(problems) }
        var merged = self
        for (locale, delivered) in delivery.translations {
            var patterns = Dictionary((translations[locale] ?? []).map { ($0.key, $0.pattern) }, uniquingKeysWith: { first, _ in first })
            for translation in delivered { patterns[translation.key] = translation.pattern }
            merged.translations[locale] = source.compactMap { entry in patterns[entry.key].map { Translation(key: entry.key, pattern: $0) } }
        }
        return merged
    }
}
