import Strings
import StringsFormats

extension Linter {
    /// Lints a String Catalog, Android `res/` directory or XLIFF with the same checks as lookd's catalogs:
    /// the input is read through StringsFormats into lookd catalogs, linted, and every finding is placed back
    /// at the file, line and column of the localization it is about (the `strings.xml` of its locale for
    /// Android). What cannot be read becomes a finding (`unsupported-construct`, `argument-mismatch`,
    /// `argument-type`, `syntax-error`); unfinished localization states are `translation-state`. Never throws:
    /// an unreadable input is a finding too. Safe from any thread.
    ///
    /// Any locale the input has is linted with ICU's rules for it; a locale ICU has no data for is one
    /// `unknown-locale` finding. With `"locales"` in the configuration, a locale outside the list is one
    /// `file-name` finding and is not linted further.
    public func lint(_ input: FormatLintInput) -> [LintFinding] {
        // The project's own severities (Android's lint.xml) are each check's default; lookd-lint.json's settings win.
        var configuration = self.configuration
        for (check, severity) in input.checkSeverities where configuration.checks[check] == nil { configuration.checks[check] = severity }
        var reading = input.reader.reading(input.files)
        func fileName(_ relative: String?) -> String {
            guard let relative, !relative.isEmpty else { return input.name }
            return input.name.hasSuffix("/") ? input.name + relative : input.name + "/" + relative
        }
        func place(locale: String?, key: String?) -> FormatLintReading.Place {
            if let locale, let key, let place = reading.place(locale: locale, key: key) { return place }
            // A key the locale lacks: in the locale's own file when it has one (Android), else at the source's key.
            if let locale, locale != configuration.sourceTag, let place = reading.localeFiles[locale] { return place }
            if let key, let place = reading.place(locale: configuration.sourceTag, key: key) { return place }
            if let locale, let place = reading.localeFiles[locale] { return place }
            return .init(file: nil, position: .start)
        }
        var findings: [LintFinding] = []
        func emit(_ check: LintCheck, place: FormatLintReading.Place, locale: String?, key: String?, message: String, subject: String?) {
            let severity = configuration.severity(of: check, locale: locale, key: key)
            guard severity != .off, !input.ignoredChecks.contains(check), !reading.suppresses(check, locale: locale, key: key) else { return }
            // A flavour's translation the flavour's file lacks is taken from main's file of the locale.
            if check == .missingKey, let locale, let key, input.providedByMain[locale]?.contains(key) == true { return }
            // An argument the key declares may be left out of the English text and used by a translation.
            if check == .argumentMismatch, let key, let name = subject.flatMap({ $0.hasPrefix("extra:") ? String($0.dropFirst(6)) : nil }),
               reading.declaredArguments[key]?.contains(name) == true { return }
            // Android selects plurals with integers: no `other` is needed where integers never select it.
            // Android selects plurals with integers (`getQuantityString(id, int)`): `other` is not needed where
            // integers never select it (Polish, Russian), nor a category only decimals select.
            if reading.integerPlurals, let locale, let integers = PluralRules.forLocale(locale)?.integerCategories {
                if check == .missingOther, !integers.contains(.other) { return }
                if check == .missingDecimalCategory, let category = subject?.split(separator: ":").last.flatMap({ PluralCategory(rawValue: String($0)) }),
                   !integers.contains(category) { return }
            }
            // One file holds several locales (a String Catalog): the message names the locale. A missing key is
            // about a locale too, wherever it is placed (Android: the locale's strings.xml, or the source's).
            let namesLocale = (place.file == nil && reading.holdsSeveralLocales) || (check == .missingKey && locale != nil)
            let message = namesLocale ? "\(locale ?? configuration.sourceTag): " + message : message
            findings.append(LintFinding(check: check, severity: severity, file: fileName(place.file),
                                        position: SourcePosition(line: place.position.line, column: place.position.column),
                                        locale: locale, key: key, message: message, subject: subject))
        }
        let source = configuration.sourceTag
        // Each locale once: outside the configured ones (then not linted further), or unknown to ICU.
        var excluded: Set<String> = []
        for locale in reading.content.locales.map(\.identifier) where locale != source {
            // Looked for only when there is something to say (a scan of every place, 2.3% of the `lint-xliff` bench's lint time).
            var place: FormatLintReading.Place {
                reading.localeFiles[locale] ?? reading.firstPlace(of: locale)
                    ?? .init(file: nil, position: .start)
            }
            if let allowed = configuration.locales, !allowed.contains(locale) {
                excluded.insert(locale)
                emit(.fileName, place: place, locale: locale, key: nil,
                     message: "locale '\(locale)' is not one of the configured locales (\"locales\" in \(LintConfiguration.fileName)); not checked",
                     subject: locale)
            } else if !LanguageTag.hasLocaleData(locale) {
                emit(.unknownLocale, place: place, locale: locale, key: nil,
                     message: "ICU has no data for '\(locale)': it is checked with the root locale's rules (plural category other only)",
                     subject: locale)
            }
        }
        if !excluded.isEmpty {
            for locale in excluded { reading.content.translations[CatalogLocale(tag: locale)!] = nil }
            reading.problems.removeAll { $0.locale.map(excluded.contains) ?? false }
            reading.states.removeAll { excluded.contains($0.locale) }
        }
        // A localization that could not be read is reported once, as what it is, not also as missing.
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
            case .markup: .markupMismatch
            }
            let located = problem.position.map { FormatLintReading.Place(file: problem.file, position: $0) } ?? place(locale: problem.locale, key: problem.key)
            emit(check, place: located, locale: problem.locale, key: problem.key, message: problem.reason, subject: problem.reason)
        }
        for state in reading.states {
            emit(.translationState, place: state.place, locale: state.locale, key: state.key,
                 message: "the \(state.locale) localization is in state '\(state.state)', not translated", subject: state.state)
        }
        let inputs = Self.catalogs(of: reading.content)
        // The locales were judged above: every one left is allowed as a catalog name.
        var inner = configuration
        inner.locales = [source] + reading.content.locales.map(\.identifier)
        if let catalogFindings = try? Linter(configuration: inner).lint(inputs) {
            for finding in catalogFindings {
                if let key = finding.key, unreadableSources.contains(key)
                    || unreadable.contains(FormatLintReading.placeKey(locale: finding.locale ?? source, key: key)) { continue }
                emit(finding.check, place: place(locale: finding.locale, key: finding.key), locale: finding.locale, key: finding.key,
                     message: finding.message, subject: finding.subject)
            }
        }
        // A flavour's English is main's: its findings belong to main's lint.
        if input.mainResources != nil {
            let english = fileName("values/strings.xml")
            findings.removeAll { $0.file == english }
        }
        if let scope = input.scope {
            let prefix = fileName(scope)
            findings.removeAll { !($0.file == prefix || $0.file.hasPrefix(prefix.hasSuffix("/") ? prefix : prefix + "/")) }
        }
        return findings.sortedForReport()
    }

    /// The content as the catalogs lookd would write (`en.json`, then `TAG.json` per locale), handed over as
    /// documents in memory; as the files' bytes when a document cannot stand for its file (`CatalogDocument.init?(entries:)`).
    /// Writing the JSON and reading it back was 12% of the `lint-xliff` bench's lint time.
    private static func catalogs(of content: CatalogContent) -> [LintedCatalog] {
        let source = CatalogDocument(entries: content.source.map { ($0.key, $0.message, $0.maxLength) })
        let locales = content.locales.map { locale in
            (name: locale.identifier + ".json",
             document: CatalogDocument(entries: (content.translations[locale] ?? []).map { ($0.key, $0.pattern, nil) }, keysFollow: source))
        }
        guard let source, locales.allSatisfy({ $0.document != nil }) else {
            return content.files.map { .input(CatalogInput(name: $0.name, bytes: $0.bytes)) }
        }
        return [.document(name: "en.json", source)] + locales.map { .document(name: $0.name, $0.document!) }
    }
}
