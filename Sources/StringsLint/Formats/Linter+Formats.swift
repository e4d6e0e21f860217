import Strings
import StringsFormats

extension Linter {
    /// Lints a String Catalog, Android `res/` directory or XLIFF with the same checks as lookd's catalogs:
    /// the input is read through StringsFormats into lookd catalogs, linted, and every finding is placed back
    /// at the file, line and column of the localization it is about (the `strings.xml` of its locale for
    /// Android). What cannot be read becomes a finding (`unsupported-construct`, `argument-mismatch`,
    /// `argument-type`, `syntax-error`); unfinished localization states are `translation-state`. Never throws:
    /// an unreadable input is a finding too. Safe from any thread.
    public func lint(_ input: FormatLintInput) -> [LintFinding] {
        let reading = input.reader.reading(input.files)
        func fileName(_ relative: String?) -> String {
            guard let relative, !relative.isEmpty else { return input.name }
            return input.name.hasSuffix("/") ? input.name + relative : input.name + "/" + relative
        }
        func place(locale: String?, key: String?) -> FormatLintReading.Place {
            if let locale, let key, let place = reading.places[FormatLintReading.placeKey(locale: locale, key: key)] { return place }
            if let key, let place = reading.places[FormatLintReading.placeKey(locale: configuration.sourceTag, key: key)] { return place }
            if let locale, let place = reading.localeFiles[locale] { return place }
            return .init(file: nil, position: .start)
        }
        var findings: [LintFinding] = []
        func emit(_ check: LintCheck, place: FormatLintReading.Place, locale: String?, key: String?, message: String, subject: String?) {
            let severity = configuration.severity(of: check, locale: locale, key: key)
            guard severity != .off else { return }
            findings.append(LintFinding(check: check, severity: severity, file: fileName(place.file),
                                        position: SourcePosition(line: place.position.line, column: place.position.column),
                                        locale: locale, key: key, message: message, subject: subject))
        }
        // A localization that could not be read is reported once, as what it is, not also as missing.
        let source = configuration.sourceTag
        let unreadable = Set(reading.problems.compactMap { problem in problem.key.map { FormatLintReading.placeKey(locale: problem.locale ?? source, key: $0) } })
        let unreadableSources = Set(reading.problems.filter { ($0.locale ?? source) == source }.compactMap(\.key))
        for problem in reading.problems {
            if problem.kind == .unknownKey, problem.locale == nil, let key = problem.key, unreadableSources.contains(key) { continue }
            let check: LintCheck = switch problem.kind {
            case .unsupported: .unsupportedConstruct
            case .argument: .argumentMismatch
            case .argumentType: .argumentType
            case .syntax: .syntaxError
            case .unknownKey: .extraKey
            }
            let located = problem.position.map { FormatLintReading.Place(file: problem.file, position: $0) } ?? place(locale: problem.locale, key: problem.key)
            emit(check, place: located, locale: problem.locale, key: problem.key, message: problem.reason, subject: problem.reason)
        }
        for state in reading.states {
            emit(.translationState, place: state.place, locale: state.locale, key: state.key,
                 message: "the \(state.locale) localization is in state '\(state.state)', not translated", subject: state.state)
        }
        let inputs = reading.content.files.map { CatalogInput(name: $0.name, bytes: $0.bytes) }
        if let catalogFindings = try? lint(inputs) {
            for finding in catalogFindings {
                if let key = finding.key, unreadableSources.contains(key)
                    || unreadable.contains(FormatLintReading.placeKey(locale: finding.locale ?? source, key: key)) { continue }
                emit(finding.check, place: place(locale: finding.locale, key: finding.key), locale: finding.locale, key: finding.key,
                     message: finding.message, subject: finding.subject)
            }
        }
        return findings.sorted(by: LintFinding.reportOrder)
    }
}
