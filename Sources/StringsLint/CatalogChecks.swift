import Strings
/// The checks of one catalog file against the source: file-level problems, key inventory, then every message.
struct CatalogChecks {
    private var emitter: Emitter
    private let source: SourceCatalog
    private let isSource: Bool
    private let language: String
    /// The locale's likely script (e.g. "Latn"), from ICU's likely subtags.
    private let script: String?
    private let plurals: PluralCoverage?
    private let ordinals: PluralCoverage?
    private let allowIdentical: Set<String>
    /// Whether the CJK spacing and suffix checks apply to the locale's language: decided once, not per message
    /// (looking the language up in a `Set` per message was 5.4 of the 374 million instructions of `lookd lint` on
    /// one `lint-xliff` bench file, callgrind, 2 Dec 2026).
    private let checksCJKSpacing: Bool
    private let checksSuffixes: Bool
    /// The single typed arguments this catalog's tag has had checked (`MessageFormatValidation.Memo`).
    private var validated = MessageFormatValidation.Memo()

    init(emitter: Emitter, source: SourceCatalog, isSource: Bool) {
        self.emitter = emitter
        self.source = source
        self.isSource = isSource
        let tag = emitter.locale
        let wellFormed = LanguageTag.isWellFormed(tag)
        self.language = LanguageTag.subtags(tag).language.lowercased()
        self.script = wellFormed ? LanguageTag.maximize(tag).flatMap { LanguageTag.subtags($0).script } : nil
        self.plurals = wellFormed ? PluralCoverage.forLocale(tag) : nil
        self.ordinals = wellFormed ? PluralCoverage.forLocale(tag, ordinal: true) : nil
        self.allowIdentical = emitter.configuration.allowIdentical
        self.checksCJKSpacing = CJKPlaceholderSpacing.applies(toLanguage: language) && plurals != nil // plurals: a tag ICU can format for
        self.checksSuffixes = SuffixOnPlainArgument.applies(toLanguage: language)
    }

    /// Runs every check and returns the emitter holding the findings.
    consuming func run(_ document: CatalogDocument) -> Emitter {
        for problem in document.problems {
            emitter.emit(problem.check, at: problem.position, key: problem.key, problem.message,
                         subject: nil)
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
        var seen = [Bool](repeating: false, count: source.keys.count)
        var cursor = SourceCatalog.Cursor()
        for entry in document.entries {
            let sourceMessage = source.message(entry.key, cursor: &cursor)
            if let sourceMessage { seen[sourceMessage.index] = true }
            checkMessage(entry, sourceMessage)
        }
        if !isSource {
            for (index, key) in source.keys.enumerated() where !seen[index] {
                emitter.emit(.missingKey, at: .start, key: key, "missing key '\(key)'")
            }
        }
        return emitter
    }

    private mutating func checkMessage(_ entry: CatalogDocument.Entry, _ sourceMessage: SourceCatalog.Message?) {
        let key = entry.key
        let value = entry.value
        if !isSource, sourceMessage == nil {
            emitter.emit(.extraKey, at: entry.keyPosition, key: key, "key '\(key)' is not in the source catalog")
        }
        if entry.message.isEmpty {
            emitter.emit(.emptyValue, at: value.quote, key: key, "'\(key)' is empty")
            return
        }
        if TextChecks.mayHaveControlOrBidi(entry.message) {
            if let control = TextChecks.controlCharacters(entry.message) {
                let name = "U+" + String(control.scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
                let more = control.count > 1 ? " (and \(control.count - 1) more)" : ""
                emitter.emit(.controlCharacter, at: value.position(ofScalar: control.offset), key: key,
                             "control character \(name) in '\(key)'\(more)")
            }
            if let bidi = TextChecks.unbalancedBidi(entry.message) {
                emitter.emit(.unbalancedBidi, at: value.position(ofScalar: bidi.offset), key: key, "'\(key)': \(bidi.problem)")
            }
        }

        let pattern: LintPattern
        if isSource, let sourceMessage, let parsed = sourceMessage.pattern, sourceMessage.entry.message == entry.message {
            // The source's messages were parsed once for `SourceCatalog`: not parsed again for its own checks
            // (`LintPattern.parse`, 2,400 of its 7,000 calls in `lookd lint` on one `lint-xliff` bench file).
            pattern = parsed
        } else {
            switch LintPattern.parse(entry.message) {
            case .success(let parsed): pattern = parsed
            case .failure(let failure):
                reportSyntax(failure, entry: entry)
                return
            }
        }
        if pattern.needsMessageFormatValidation,
           let failure = MessageFormatValidation.error(pattern: entry.message, structure: pattern,
                                                       tag: plurals == nil ? "und" : emitter.locale, memo: &validated) {
            emitter.emit(.syntaxError, at: value.position(ofScalar: failure.offset), key: key,
                         "'\(key)' is not valid MessageFormat: \(Self.describe(failure.name)) (ICU: \(failure.name))",
                         subject: failure.name)
            return
        }
        checkPlurals(pattern, entry: entry)
        if checksCJKSpacing {
            checkCJKSpacing(pattern, entry: entry)
        }
        if checksSuffixes {
            checkSuffixes(pattern, entry: entry, sourceSignature: sourceMessage?.signature ?? [])
        }
        if let maxLength = sourceMessage?.entry.maxLength ?? (isSource ? entry.maxLength : nil),
           pattern.displayCodePoints > maxLength { // code points bound characters from above
            let length = pattern.displayText.count { $0 != Character(LintPattern.placeholder) }
            if length > maxLength {
                emitter.emit(.tooLong, at: value.contentStart, key: key,
                             "'\(key)' can show \(length) characters; the source allows at most \(maxLength) (arguments not counted)")
            }
        }
        guard !isSource, let sourceMessage, let sourcePattern = sourceMessage.pattern else { return }
        checkArguments(pattern, against: sourceMessage, entry: entry)
        checkEdges(pattern, against: sourcePattern, entry: entry)
        if entry.message == sourceMessage.entry.message, language != source.language,
           !allowIdentical.contains(entry.message),
           case let displayText = pattern.displayText,
           !allowIdentical.contains(displayText.trimmingWhitespace()),
           identicalIsUnlikely(displayText) {
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
            word.unicodeScalars.contains { $0.properties.isAlphabetic && $0 != LintPattern.placeholder }
        }
        if words.isEmpty { return false }
        if let script, let sourceScript = source.script, script != sourceScript { return true }
        return words.count >= 2
    }

    private mutating func reportSyntax(_ failure: LintPattern.ParseFailure, entry: CatalogDocument.Entry) {
        if failure.name == "U_DEFAULT_KEYWORD_MISSING" {
            emitter.emit(.missingOther, at: entry.value.contentStart, key: entry.key,
                         "'\(entry.key)': a plural, selectordinal or select has no 'other' case (ICU: \(failure.name))")
            return
        }
        emitter.emit(.syntaxError, at: entry.value.position(ofScalar: failure.offset), key: entry.key,
                     "'\(entry.key)' is not valid MessageFormat: \(Self.describe(failure.name)) (ICU: \(failure.name))",
                     subject: failure.name)
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
        case "U_NUMBER_SKELETON_SYNTAX_ERROR": "bad number skeleton"
        case MessageNestingLimit.tooDeepErrorName:
            "plural, select or choice branches nested deeper than \(MessageNestingLimit.levels) levels"
        default: "the pattern does not parse"
        }
    }

    private mutating func checkPlurals(_ pattern: LintPattern, entry: CatalogDocument.Entry) {
        for (index, argument) in pattern.arguments.enumerated() {
            let rules: PluralCoverage
            switch argument.type {
            case .plural:
                guard let plurals else { continue }
                rules = plurals
            case .selectordinal:
                guard let ordinals else { continue }
                rules = ordinals
            default:
                continue
            }
            let kind = argument.type.rawValue
            let selectors = pattern.selectors.filter { $0.argument == index }
            let at = entry.value.position(ofScalar: argument.offset)
            for gap in rules.gaps(keys: selectors.map(\.key)) {
                switch gap {
                case .missingInteger(let category, let examples):
                    let list = examples.map(String.init).joined(separator: ", ")
                    emitter.emit(.missingPluralCategory, at: at, key: entry.key,
                                 "'\(entry.key)': {\(argument.name), \(kind)} lacks '\(category.rawValue)', which \(emitter.locale) selects for \(list)…",
                                 subject: "\(argument.name):\(category.rawValue)")
                case .missingDecimal(let category):
                    emitter.emit(.missingDecimalCategory, at: at, key: entry.key,
                                 "'\(entry.key)': {\(argument.name), \(kind)} lacks '\(category.rawValue)', which \(emitter.locale) selects only for decimals or large numbers",
                                 subject: "\(argument.name):\(category.rawValue)")
                case .unreachable(let keyIndex):
                    let selector = selectors[keyIndex]
                    emitter.emit(.unreachablePluralCategory, at: entry.value.position(ofScalar: selector.offset), key: entry.key,
                                 "'\(entry.key)': \(kind) case '\(selector.key)' is never selected in \(emitter.locale) (categories: \(rules.categoryNames))",
                                 subject: "\(argument.name):\(selector.key)")
                }
            }
        }
    }

    private mutating func checkCJKSpacing(_ pattern: LintPattern, entry: CatalogDocument.Entry) {
        for gap in CJKPlaceholderSpacing.gaps(in: entry.message, structure: pattern, tag: emitter.locale) {
            let neighbour = gap.side == .after ? "the text after it" : "the text before it"
            emitter.emit(.spaceAroundCJKPlaceholder, at: entry.value.position(ofScalar: gap.spaceOffset), key: entry.key,
                         "'\(entry.key)': a space separates {\(gap.argument)} (shown as “\(gap.rendered)”) from \(neighbour); \(emitter.locale) writes no space between them",
                         subject: "\(gap.argument):\(gap.side.rawValue)")
        }
    }

    private mutating func checkSuffixes(_ pattern: LintPattern, entry: CatalogDocument.Entry,
                                        sourceSignature: [(name: String, types: ArgumentTypeSet)]) {
        let typed = SuffixOnPlainArgument.typedNames(in: sourceSignature)
        for join in SuffixOnPlainArgument.joins(in: entry.message, structure: pattern, language: language, typedInSource: typed) {
            emitter.emit(.suffixOnPlainArgument, at: entry.value.position(ofScalar: join.offset), key: entry.key,
                         "'\(entry.key)': “\(join.suffix)” is joined to {\(join.argument)}, a name the translation cannot see, so the ending's form cannot be right for every name; put a noun after it to take the ending",
                         subject: "\(join.argument):\(join.suffix)")
        }
    }

    private mutating func checkArguments(_ pattern: LintPattern, against sourceMessage: SourceCatalog.Message,
                                         entry: CatalogDocument.Entry) {
        // The same arguments here and in the source, each used once and of the same type: nothing to report (most
        // messages with arguments; their signatures, merged and compared, took 2.6 of the 243 million instructions of
        // `lookd lint` on one `lint-xliff` bench file for the messages of one argument, and 2.0 of 199 million for those
        // of two, callgrind, 3 Dec 2026).
        if let sourceArguments = sourceMessage.pattern?.arguments, Self.sameArgumentsUsedOnce(pattern.arguments, sourceArguments) { return }
        let expected = sourceMessage.signature
        let actual = pattern.argumentSignature
        for argument in actual where !expected.contains(where: { $0.name == argument.name }) {
            let use = pattern.arguments.first { $0.name == argument.name }!
            let known = expected.map { "{\($0.name)}" }.joined(separator: ", ")
            emitter.emit(.argumentMismatch, at: entry.value.position(ofScalar: use.offset), key: entry.key,
                         "'\(entry.key)' uses {\(argument.name)}, which the source does not have (source: \(known.isEmpty ? "no arguments" : known))",
                         subject: "extra:\(argument.name)")
        }
        for argument in expected where !actual.contains(where: { $0.name == argument.name }) {
            emitter.emit(.argumentMismatch, at: entry.value.contentStart, key: entry.key,
                         "'\(entry.key)' drops {\(argument.name)}, which the source uses", subject: "missing:\(argument.name)")
        }
        for argument in actual {
            guard let wanted = expected.first(where: { $0.name == argument.name })?.types.essential else { continue }
            let got = argument.types.essential
            guard wanted != got else { continue }
            let use = pattern.arguments.first { $0.name == argument.name && !wanted.contains($0.type) }
                ?? pattern.arguments.first { $0.name == argument.name }!
            emitter.emit(.argumentType, at: entry.value.position(ofScalar: use.offset), key: entry.key,
                         "'\(entry.key)': {\(argument.name)} is \(wanted.description) in the source but \(got.description) here",
                         subject: argument.name)
        }
    }

    /// Whether `arguments` and `source` have the same names, each used once, with the same type: then each list is its
    /// own signature (`LintPattern.argumentSignature`, every type set one type, which is its essential set) and the
    /// signatures are equal. `arguments`' names are told apart; `source`'s follow: as many uses, all of those names.
    /// Indices and loops, not `enumerated`, slices and `first(where:)`: with those (copies of each argument) the
    /// comparisons took 1.9 of the 199 million instructions of `lookd lint` on one `lint-xliff` bench file (callgrind,
    /// 3 Dec 2026).
    static func sameArgumentsUsedOnce(_ arguments: [LintPattern.Argument], _ source: [LintPattern.Argument]) -> Bool {
        let count = arguments.count
        guard count == source.count else { return false }
        for index in 0..<count {
            for earlier in 0..<index where arguments[earlier].name == arguments[index].name { return false }
            var match = 0
            while match < count, source[match].name != arguments[index].name { match += 1 }
            guard match < count, source[match].type == arguments[index].type else { return false }
        }
        return true
    }

    /// Edge whitespace and final punctuation, told from the display texts' ends (`LintPattern.withDisplayEnds`).
    private mutating func checkEdges(_ pattern: LintPattern, against sourcePattern: LintPattern, entry: CatalogDocument.Entry) {
        let (language, sourceLanguage) = (self.language, source.language)
        let (sourceEdges, theirs) = sourcePattern.withDisplayEnds { head, tail in
            (TextChecks.edgeWhitespace(head: head, tail: tail), TextChecks.finalPunctuation(utf8: tail, language: sourceLanguage))
        }
        let (found, mine, spacedEnd) = pattern.withDisplayEnds { head, tail in
            (TextChecks.edgeWhitespace(head: head, tail: tail), TextChecks.finalPunctuation(utf8: tail, language: language),
             TextChecks.endsWithSpacedFullWidthPunctuation(utf8: tail))
        }
        var edges = found
        // "アイデアがあります：" for "I have an idea: ": the full-width colon's glyph is the space.
        if sourceEdges.trailing, !edges.trailing, spacedEnd {
            edges = TextChecks.Edges(leading: edges.leading, trailing: true)
        }
        if edges != sourceEdges {
            for (side, here, there) in [("leading", edges.leading, sourceEdges.leading), ("trailing", edges.trailing, sourceEdges.trailing)]
                where here != there {
                let position = side == "leading" ? entry.value.contentStart : entry.value.position(ofScalar: entry.value.scalarCount - 1)
                emitter.emit(.whitespace, at: position, key: entry.key,
                             "'\(entry.key)' \(here ? "has" : "lacks") \(side) whitespace \(here ? "that the source does not have" : "that the source has")",
                             subject: side)
            }
        }
        guard mine != theirs else { return }
        if mine == .none, theirs == .fullStop, TextChecks.optionalFullStop.contains(language) { return }
        emitter.emit(.endPunctuation, at: entry.value.position(ofScalar: max(0, entry.value.scalarCount - 1)), key: entry.key,
                     "'\(entry.key)' ends with \(mine == .none ? "no punctuation" : mine.rawValue) but the source ends with \(theirs == .none ? "no punctuation" : theirs.rawValue)",
                     subject: theirs.caseName + "->" + mine.caseName)
    }
}
