import Strings

extension CatalogContent {
    /// These catalogs without what an export would refuse (`PrintfCatalog(_:)`: a translation using an argument
    /// the English message does not have, a pattern that is not MessageFormat, …), and those problems — so an
    /// import never writes catalogs its own export refuses. A translation is left out on its own; a key whose
    /// source cannot be exported is left out with every translation. Every problem is listed (an export lists
    /// every refusal in one run). Pure.
    public func droppingWhatExportRefuses() -> (content: CatalogContent, problems: [ConversionError.Problem]) {
        var content = self
        var problems: [ConversionError.Problem] = []
        // The conversion lists every key's and locale's problem at once; each round removes what it named, and a
        // removal never makes another entry fail, so a second round finds nothing (bounded anyway).
        for _ in 0..<8 {
            do {
                _ = try PrintfCatalog(content)
                return (content, problems)
            } catch let error as ConversionError {
                problems += error.problems
                var droppedKeys: Set<String> = []
                var droppedTranslations: Set<String> = []
                for problem in error.problems {
                    guard let key = problem.key else { continue }
                    if let tag = problem.locale, tag != CatalogLocale.english.identifier {
                        droppedTranslations.insert(tag + "\u{0}" + key)
                    } else {
                        droppedKeys.insert(key)
                    }
                }
                if droppedKeys.isEmpty && droppedTranslations.isEmpty { return (content, problems) }
                content.source.removeAll { droppedKeys.contains($0.key) }
                for (locale, entries) in content.translations {
                    content.translations[locale] = entries.filter {
                        !droppedKeys.contains($0.key) && !droppedTranslations.contains(locale.identifier + "\u{0}" + $0.key)
                    }
                    if content.translations[locale]?.isEmpty == true { content.translations[locale] = nil }
                }
            } catch {
                return (content, problems)
            }
        }
        return (content, problems)
    }

    /// These catalogs without the locales whose language ICU has no data for (`ang`, `tok`), and one problem
    /// per such locale: `load(directory:)` does not read their `TAG.json` back, so an import carries them
    /// beside the catalogs instead. Pure.
    public func droppingLocalesICUDoesNotKnow() -> (content: CatalogContent, problems: [ConversionError.Problem]) {
        var content = self
        var problems: [ConversionError.Problem] = []
        for locale in content.locales where !locale.isKnownToICU {
            problems.append(.init(key: nil, locale: locale.identifier, reason: "ICU has no data for this language; lookd's catalogs do not hold it"))
            content.translations[locale] = nil
        }
        return (content, problems)
    }
}
