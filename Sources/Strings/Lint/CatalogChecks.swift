/// The checks of one catalog file against the source: file-level problems, key inventory, then every message.
struct CatalogChecks {
    private var emitter: Emitter
    private let source: SourceCatalog
    private let isSource: Bool
    private let language: String
    /// The locale's likely script (e.g. "Latn"), from ICU's likely subtags.
    private let script: String?
    private let plurals: PluralCoverage?
    private let allowIdentical: Set<String>

    init(emitter: Emitter, source: SourceCatalog, isSource: Bool) {
        self.emitter = emitter
        self.source = source
        self.isSource = isSource
        let tag = emitter.locale
        self.language = LanguageTag.subtags(tag).language.lowercased()
        self.script = LanguageTag.maximize(tag).flatMap { LanguageTag.subtags($0).script }
        self.plurals = LanguageTag.isWellFormed(tag) ? PluralCoverage(tag: tag) : nil
        self.allowIdentical = emitter.configuration.allowIdentical
    }

    /// Runs every check and returns the emitter holding the findings.
    consuming func run(_ document: CatalogDocument) -> Emitter {
        for problem in document.problems {
            emitter.emit(problem.check, at: problem.position, key: problem.key, problem.message,
                         subject: problem.check == .invalidJSON ? "\(problem.position.line)" : nil)
        }
        if document.problems.contains(where: { $0.check == .invalidUTF8 || ($0.check == .invalidJSON && $0.key == nil && document.entries.isEmpty) }) {
            return emitter
        }
        for duplicate in document.duplicates {
            let scope = duplicate.path.isEmpty ? "" : " inside '\(duplicate.path.joined(separator: "."))'"
            emitter.emit(.duplicateKey, at: duplicate.position, key: duplicate.path.first ?? duplicate.key,
                         "key '\(duplicate.key)'\(scope) is also written on line \(duplicate.firstLine); JSON decoders keep only this last one",
                         subject: (duplicate.path + [duplicate.key]).joined(separator: "."))
        }
        var seen: Set<String> = []
        seen.reserveCapacity(document.entries.count)
        for entry in document.entries {
            seen.insert(entry.key)
            checkMessage(entry)
        }
        if !isSource {
            for key in source.keys where !seen.contains(key) {
                emitter.emit(.missingKey, at: .start, key: key, "missing key '\(key)'")
            }
        }
        return emitter
    }

    private mutating func checkMessage(_ entry: CatalogDocument.Entry) {
        let key = entry.key
        let value = entry.value
        let sourceMessage = source.messages[key]
        if !isSource, sourceMessage == nil {
            emitter.emit(.extraKey, at: entry.keyPosition, key: key, "key '\(key)' is not in the source catalog")
        }
        if entry.message.isEmpty {
            emitter.emit(.emptyValue, at: value.quote, key: key, "'\(key)' is empty")
            return
        }
        if let control = TextChecks.controlCharacters(entry.message) {
            let name = "U+" + String(control.scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            let more = control.count > 1 ? " (and \(control.count - 1) more)" : ""
            emitter.emit(.controlCharacter, at: value.position(ofScalar: control.offset), key: key,
                         "control character \(name) in '\(key)'\(more)")
        }
        if let bidi = TextChecks.unbalancedBidi(entry.message) {
            emitter.emit(.unbalancedBidi, at: value.position(ofScalar: bidi.offset), key: key, "'\(key)': \(bidi.problem)")
        }

        let structure: MessageStructure
        do {
            structure = try MessageStructure(pattern: entry.message)
        } catch {
            reportSyntax(error, entry: entry)
            return
        }
        if MessageFormatValidation.needsValidation(structure),
           let failure = MessageFormatValidation.error(pattern: entry.message, tag: plurals == nil ? "und" : emitter.locale) {
            // ICU's MessageFormat seldom says where; then point at the first typed argument.
            let typed = structure.arguments.first(where: MessageFormatValidation.needsValidation)
            let offset = failure.offset > 0 ? failure.offset : (typed?.offset ?? 0)
            emitter.emit(.syntaxError, at: entry.value.position(ofScalar: offset), key: entry.key,
                         "'\(entry.key)' is not valid MessageFormat: \(Self.describe(failure.name)) (ICU: \(failure.name))",
                         subject: failure.name)
            return
        }
        checkPlurals(structure, entry: entry)
        let maxLength = sourceMessage?.entry.maxLength ?? (isSource ? entry.maxLength : nil)
        if let maxLength {
            let length = structure.displayText.filter { $0 != Character(MessageStructure.argumentPlaceholder) }.count
            if length > maxLength {
                emitter.emit(.tooLong, at: value.contentStart, key: key,
                             "'\(key)' can show \(length) characters; the source allows at most \(maxLength) (arguments not counted)")
            }
        }
        guard !isSource, let sourceMessage, let sourceStructure = sourceMessage.structure else { return }
        checkArguments(structure, against: sourceStructure, entry: entry)
        checkEdges(structure.displayText, against: sourceStructure.displayText, entry: entry)
        if entry.message == sourceMessage.entry.message, language != source.language,
           !allowIdentical.contains(entry.message),
           !allowIdentical.contains(structure.displayText.trimmingWhitespace()),
           identicalIsUnlikely(structure.displayText) {
            emitter.emit(.identicalToSource, at: value.contentStart, key: key,
                         "'\(key)' is identical to the source text; translate it, or allow it with \"allowIdentical\" in lookd-lint.json")
        }
    }

    /// An identical text is reported when the locale writes another script than the source (it cannot be a
    /// translation), or when it has two or more words (a whole phrase rarely coincides). A single word in the
    /// same script is often a loanword or cognate ("Support" in German, "Open" in Dutch) and is not reported; a
    /// text without letters never is.
    private func identicalIsUnlikely(_ displayText: String) -> Bool {
        let words = displayText.split(whereSeparator: { $0.isWhitespace }).filter { word in
            word.unicodeScalars.contains { $0.properties.isAlphabetic && $0 != MessageStructure.argumentPlaceholder }
        }
        if words.isEmpty { return false }
        if let script, let sourceScript = source.script, script != sourceScript { return true }
        return words.count >= 2
    }

    private mutating func reportSyntax(_ error: any Error, entry: CatalogDocument.Entry) {
        guard case FormatError.invalidPattern(_, let name, let offset) = error else {
            emitter.emit(.syntaxError, at: entry.value.contentStart, key: entry.key, "'\(entry.key)' does not parse: \(error)")
            return
        }
        if name == "U_DEFAULT_KEYWORD_MISSING" {
            emitter.emit(.missingOther, at: entry.value.contentStart, key: entry.key,
                         "'\(entry.key)': a plural, selectordinal or select has no 'other' case (ICU: \(name))")
            return
        }
        emitter.emit(.syntaxError, at: entry.value.position(ofScalar: offset), key: entry.key,
                     "'\(entry.key)' is not valid MessageFormat: \(Self.describe(name)) (ICU: \(name))", subject: name)
    }

    static func describe(_ icuError: String) -> String {
        switch icuError {
        case "U_UNMATCHED_BRACES": "unmatched braces"
        case "U_PATTERN_SYNTAX_ERROR": "syntax error"
        case "U_ILLEGAL_ARGUMENT_ERROR": "illegal argument (a bad name, type or style)"
        case "U_DUPLICATE_KEYWORD": "a plural or select key is written twice"
        case "U_UNDEFINED_KEYWORD": "unknown plural keyword"
        case "U_ARGUMENT_TYPE_MISMATCH": "argument type mismatch"
        case "U_INDEX_OUTOFBOUNDS_ERROR": "number out of range"
        default: "the pattern does not parse"
        }
    }

    private mutating func checkPlurals(_ structure: MessageStructure, entry: CatalogDocument.Entry) {
        guard let plurals else { return }
        for (index, argument) in structure.arguments.enumerated() where argument.type == .plural {
            let selectors = structure.selectors.filter { $0.argument == index }
            let keys = selectors.map(\.key)
            let at = entry.value.position(ofScalar: argument.offset)
            for gap in plurals.gaps(keys: keys) {
                switch gap {
                case .missingInteger(let category, let examples):
                    let list = examples.map(String.init).joined(separator: ", ")
                    emitter.emit(.missingPluralCategory, at: at, key: entry.key,
                                 "'\(entry.key)': {\(argument.name), plural} lacks '\(category.rawValue)', which \(emitter.locale) selects for \(list)…",
                                 subject: "\(argument.name):\(category.rawValue)")
                case .missingDecimal(let category):
                    emitter.emit(.missingDecimalCategory, at: at, key: entry.key,
                                 "'\(entry.key)': {\(argument.name), plural} lacks '\(category.rawValue)', which \(emitter.locale) selects only for decimals or large numbers",
                                 subject: "\(argument.name):\(category.rawValue)")
                case .unreachable(let keyIndex):
                    let selector = selectors[keyIndex]
                    emitter.emit(.unreachablePluralCategory, at: entry.value.position(ofScalar: selector.offset), key: entry.key,
                                 "'\(entry.key)': plural case '\(selector.key)' is never selected in \(emitter.locale) (categories: \(plurals.categories.sorted().map(\.rawValue).joined(separator: ", ")))",
                                 subject: "\(argument.name):\(selector.key)")
                }
            }
        }
    }

    private mutating func checkArguments(_ structure: MessageStructure, against sourceStructure: MessageStructure,
                                         entry: CatalogDocument.Entry) {
        let sourceTypes = sourceStructure.argumentTypes
        let types = structure.argumentTypes
        for name in structure.argumentNames where sourceTypes[name] == nil {
            let use = structure.arguments.first { $0.name == name }!
            let known = sourceStructure.argumentNames.map { "{\($0)}" }.joined(separator: ", ")
            emitter.emit(.argumentMismatch, at: entry.value.position(ofScalar: use.offset), key: entry.key,
                         "'\(entry.key)' uses {\(name)}, which the source does not have (source: \(known.isEmpty ? "no arguments" : known))",
                         subject: "extra:\(name)")
        }
        for name in sourceStructure.argumentNames where types[name] == nil {
            emitter.emit(.argumentMismatch, at: entry.value.contentStart, key: entry.key,
                         "'\(entry.key)' drops {\(name)}, which the source uses", subject: "missing:\(name)")
        }
        for name in structure.argumentNames {
            guard let expected = sourceTypes[name], let actual = types[name] else { continue }
            let wanted = Self.essential(expected)
            let got = Self.essential(actual)
            guard wanted != got else { continue }
            let use = structure.arguments.first { $0.name == name && !wanted.contains($0.type) } ?? structure.arguments.first { $0.name == name }!
            emitter.emit(.argumentType, at: entry.value.position(ofScalar: use.offset), key: entry.key,
                         "'\(entry.key)': {\(name)} is \(Self.describe(wanted)) in the source but \(Self.describe(got)) here",
                         subject: name)
        }
    }

    /// The types that matter: a plain `{name}` next to a typed use of the same argument adds nothing.
    private static func essential(_ types: Set<ArgumentType>) -> Set<ArgumentType> {
        types.count > 1 ? types.subtracting([.string]) : types
    }

    private static func describe(_ types: Set<ArgumentType>) -> String {
        types.map(\.rawValue).sorted().map { $0 == "string" ? "plain" : $0 }.joined(separator: " and ")
    }

    private mutating func checkEdges(_ text: String, against sourceText: String, entry: CatalogDocument.Entry) {
        let edges = TextChecks.edgeWhitespace(text)
        let sourceEdges = TextChecks.edgeWhitespace(sourceText)
        for (side, here, there) in [("leading", edges.leading, sourceEdges.leading), ("trailing", edges.trailing, sourceEdges.trailing)]
            where here != there {
            let position = side == "leading" ? entry.value.contentStart : entry.value.position(ofScalar: entry.value.scalarCount - 1)
            emitter.emit(.whitespace, at: position, key: entry.key,
                         "'\(entry.key)' \(here ? "has" : "lacks") \(side) whitespace \(here ? "that the source does not have" : "that the source has")",
                         subject: side)
        }
        let mine = TextChecks.finalPunctuation(text, language: language)
        let theirs = TextChecks.finalPunctuation(sourceText, language: source.language)
        guard mine != theirs else { return }
        if mine == .none, theirs == .fullStop, TextChecks.optionalFullStop.contains(language) { return }
        emitter.emit(.endPunctuation, at: entry.value.position(ofScalar: max(0, entry.value.scalarCount - 1)), key: entry.key,
                     "'\(entry.key)' ends with \(mine == .none ? "no punctuation" : mine.rawValue) but the source ends with \(theirs == .none ? "no punctuation" : theirs.rawValue)",
                     subject: "\(theirs)->\(mine)")
    }
}
