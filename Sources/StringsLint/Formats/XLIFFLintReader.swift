import Strings
import StringsFormats

/// An XLIFF 1.2 file for the linter: positions are each `<trans-unit>`.
struct XLIFFLintReader: FormatLintReader {
    /// The states of a finished translation, compared with a unit's state one by one (three short strings: hashing
    /// every unit's state for a set was 0.6 of the 206 million instructions of `lookd lint` on one `lint-xliff` bench
    /// file, callgrind, 3 Dec 2026).
    static let finishedStates = ["translated", "final", "signed-off"]

    func reading(_ files: FormatFiles) -> FormatLintReading {
        var reading = FormatLintReading()
        let document: XLIFFDocument
        // An .xcloc bundle: its `Localized Contents/TAG.xliff`.
        let bytes = files.single ?? files.files.first { $0.key.hasPrefix("Localized Contents/") && $0.key.hasSuffix(".xliff") }?.value ?? []
        do {
            document = try XLIFFDocument(bytes: bytes)
            (reading.content, reading.problems) = document.contentSkippingProblems()
        } catch let error as ConversionError {
            reading.problems = error.problems.map { $0.placed(file: nil, position: .start) }
            return reading
        } catch {
            return reading
        }
        // A unit's source and target sit at the unit: one place a key for both locales (two hashed (locale, key)
        // entries a unit were 4.2 of the 226 million instructions of `lookd lint` on one `lint-xliff` bench file,
        // callgrind, 3 Dec 2026).
        reading.keyPlaceLocales = ["en", document.targetLanguage]
        reading.keyPlaces.reserveCapacity(document.units.count)
        for unit in document.units {
            let place = FormatLintReading.Place(file: nil, position: unit.position)
            reading.keyPlaces[unit.id] = place
            // A plural read from several units is placed at its first one.
            if let key = unit.pluralKey, reading.keyPlaces[key] == nil {
                reading.keyPlaces[key] = place
            }
            if unit.target != nil, let state = unit.state, !Self.finishedStates.contains(state) {
                reading.states.append(.init(key: unit.id, locale: document.targetLanguage, state: state, place: place))
            }
        }
        return reading
    }
}
