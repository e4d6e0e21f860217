import StableJSON
import Strings
import StringsFormats

/// A String Catalog for the linter: positions are each localization's object in the `.xcstrings`.
struct StringCatalogLintReader: FormatLintReader {
    static let unfinishedStates: Set<String> = ["new", "needs_review", "stale"]

    func reading(_ files: FormatFiles) -> FormatLintReading {
        var reading = FormatLintReading()
        reading.holdsSeveralLocales = true
        let document: StringCatalogDocument
        do {
            document = try StringCatalogDocument(bytes: files.single ?? [], splittingVariations: true)
        } catch let error as JSONReadError {
            reading.problems = [.init(key: nil, reason: "not valid JSON: \(error.message)", kind: .syntax,
                                      position: FilePosition(line: error.line, column: error.column))]
            return reading
        } catch let error as ConversionError {
            reading.problems = error.problems.map { $0.placed(file: nil, position: .start) }
            return reading
        } catch {
            return reading
        }
        for entry in document.entries {
            let key = SelectCase.parse(appleKey: entry.key)?.key ?? entry.key
            for localization in entry.localizations {
                let place = FormatLintReading.Place(file: nil, position: localization.position)
                let slot = FormatLintReading.placeKey(locale: localization.locale, key: key)
                if reading.places[slot] == nil { reading.places[slot] = place }
                if localization.locale != document.sourceLanguage, let state = localization.state, Self.unfinishedStates.contains(state) {
                    reading.states.append(.init(key: entry.key, locale: localization.locale, state: state, place: place))
                }
            }
        }
        let (catalog, problems) = document.catalogSkippingProblems()
        for unit in catalog.units { reading.declaredArguments[unit.key, default: []].formUnion(unit.legend.entries.map(\.name)) }
        let (content, contentProblems) = catalog.contentSkippingProblems()
        reading.content = content
        reading.problems = problems + contentProblems
        return reading
    }
}
