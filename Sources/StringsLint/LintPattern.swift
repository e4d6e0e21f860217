import CICU
import Strings
import StringsFormats

/// A message pattern as the linter needs it, from one ICU parse (`lookd_lint_pattern`): argument uses with their
/// types, plural/select keys, and the longest text the message can show. Leaner than `MessageStructure` (no
/// per-item buffers, incremental offsets): the linter reads 100,000 of these in well under a second.
struct LintPattern: Sendable {
    struct Argument: Sendable {
        let name: String
        let type: ArgumentType
        /// Code points from the pattern's start.
        let offset: Int
        /// A simple argument's type word and style as written ("number", "::dMMM"), else nil.
        let typeWord: String?
        let style: String?
    }

    struct Selector: Sendable {
        let key: String
        /// Index into `arguments`.
        let argument: Int
        let offset: Int
    }

    /// A pattern ICU's parser rejects: the error name and its offset in code points.
    struct ParseFailure: Error, Sendable {
        let name: String
        let offset: Int
    }

    let arguments: [Argument]
    let selectors: [Selector]
    /// Code points of `displayText` (an upper bound of its characters).
    let displayCodePoints: Int
    /// The display text as written out, or the pattern it comes from when its only braces are simple arguments
    /// (`parseSimpleArguments`, `placeholdersUnwritten`): then each `{…}` becomes the placeholder only when the whole
    /// text is asked for, and the checks of its edges read the pattern's bytes before the first argument (up to
    /// `headEnd`) and after the last (from `tailStart`). Writing the display text of every such pattern was 6.3 of the
    /// 255 million instructions of `lookd lint` on one `lint-xliff` bench file (callgrind, 3 Dec 2026); most messages
    /// need only its edges (`withDisplayEnds`).
    private let displaySource: String
    private let placeholdersUnwritten: Bool
    private let headEnd: Int
    private let tailStart: Int

    init(arguments: [Argument], selectors: [Selector], displayText: String, displayCodePoints: Int) {
        self.arguments = arguments
        self.selectors = selectors
        self.displayCodePoints = displayCodePoints
        self.displaySource = displayText
        self.placeholdersUnwritten = false
        self.headEnd = displayText.utf8.count
        self.tailStart = 0
    }

    /// A pattern of simple arguments only (`parseSimpleArguments`); `headEnd` and `tailStart` are UTF-8 offsets.
    private init(simpleArguments arguments: [Argument], pattern: String, headEnd: Int, tailStart: Int, displayCodePoints: Int) {
        self.arguments = arguments
        self.selectors = []
        self.displayCodePoints = displayCodePoints
        self.displaySource = pattern
        self.placeholdersUnwritten = true
        self.headEnd = headEnd
        self.tailStart = tailStart
    }

    /// The longest text the pattern can show: quoting resolved, each simple argument as U+FFFC, `#` as "#", and
    /// of each plural/select the branch with the most code points.
    var displayText: String {
        guard placeholdersUnwritten else { return displaySource }
        // The pattern's only braces are its arguments' (`parseSimpleArguments`): each `{…}` is one placeholder.
        var text = ""
        text.reserveCapacity(displaySource.utf8.count)
        var inArgument = false
        for scalar in displaySource.unicodeScalars {
            if inArgument {
                inArgument = scalar != "}"
            } else if scalar == "{" {
                inArgument = true
                text.unicodeScalars.append(Self.placeholder)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// `body` of the display text's UTF-8 up to its first placeholder (`head`) and after its last (`tail`); both the
    /// whole text when it has none. What the text starts and ends with is told from these: a placeholder is neither
    /// whitespace nor punctuation, as an empty `head` or `tail` starts or ends with neither.
    func withDisplayEnds<Result>(_ body: (_ head: UnsafeBufferPointer<UInt8>, _ tail: UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var source = displaySource
        return source.withUTF8 { bytes in
            body(UnsafeBufferPointer(rebasing: bytes[..<headEnd]), UnsafeBufferPointer(rebasing: bytes[tailStart...]))
        }
    }

    /// Stands for a simple argument in `displayText`.
    static let placeholder: Unicode.Scalar = "\u{FFFC}"
    /// The two typed simple arguments `parseSimpleArguments` reads: `{name, number}` and `{name, number, integer}`
    /// (ICU's style part starts right after the comma: its text is ` integer`).
    private static let numberType: [UInt8] = Array(", number".utf8)
    private static let integerStyle: [UInt8] = Array(", integer".utf8)

    static func parse(_ pattern: String) -> Result<LintPattern, ParseFailure> {
        // Without `{`, `}` or `'` ICU reads the whole pattern as literal text: no arguments, shown as written.
        // Most messages of real catalogs are such text; ICU's parse is 15% of the `lint-xliff` bench's lint
        // instructions (docs/benchmarks.md). `LintPatternTests` compares this with ICU's reading.
        if !pattern.containsUTF8(anyOf: UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "'")) {
            return .success(LintPattern(arguments: [], selectors: [], displayText: pattern, displayCodePoints: pattern.unicodeScalarCount))
        }
        if let simple = parseSimpleArguments(pattern) { return .success(simple) }
        return parseWithICU(pattern)
    }

    /// Text whose only braces are simple arguments named `{name}` (an ASCII letter, then letters, digits or `_`),
    /// optionally typed exactly `{name, number}` or `{name, number, integer}`, and which has no `'`, read without
    /// ICU; nil for anything else. The printf messages of Xcode and Android files become such patterns (`{arg1}
    /// liked your post`, `{arg1, number, integer} new messages` from `%lld`, `{arg1, number}` from `%.1f`): ICU's
    /// parse of the untyped ones was 63 of the 404 million instructions `Linter.lint` took on one file of the
    /// `lint-xliff` bench, of the typed ones 33 of 503 million (callgrind, 2 Dec 2026). `LintPatternTests` compares
    /// this with ICU's reading.
    static func parseSimpleArguments(_ pattern: String) -> LintPattern? {
        var storage = pattern
        return storage.withUTF8 { bytes -> LintPattern? in
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
            func isNamePart(_ byte: UInt8) -> Bool {
                isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            }
            var arguments: [Argument] = []
            // Room for two at once: grown from one to two, the messages of two arguments (a fifth of a `lint-xliff` bench
            // file's) made their array twice (0.2 of the 195 million instructions of `lookd lint` on one such file,
            // callgrind, 3 Dec 2026).
            arguments.reserveCapacity(2)
            // The text from `runStart` up to the byte being read is not counted yet; `patternPoints` are the code
            // points before `runStart` (an argument's offset is its name's), `displayPoints` those of the display text
            // up to there (each run's counted once, for both).
            var headEnd: Int?
            var runStart = 0
            var patternPoints = 0
            var displayPoints = 0
            var index = 0
            while true {
                index = UTF8Words.firstIndex(ofAnyOf: UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "'"), in: bytes, from: index)
                guard index < bytes.count else { break }
                guard bytes[index] == UInt8(ascii: "{") else { return nil }
                var end = index + 1
                guard end < bytes.count, isLetter(bytes[end]) else { return nil }
                while end < bytes.count, isNamePart(bytes[end]) { end += 1 }
                let nameEnd = end
                var typed = false, integer = false
                if bytes[end...].starts(with: numberType) {
                    typed = true
                    end += numberType.count
                    if bytes[end...].starts(with: integerStyle) {
                        integer = true
                        end += integerStyle.count
                    }
                }
                guard end < bytes.count, bytes[end] == UInt8(ascii: "}") else { return nil }
                if headEnd == nil { headEnd = index }
                let runPoints = UTF8Words.codePoints(in: bytes, runStart..<index)
                patternPoints += runPoints
                displayPoints += runPoints + 1 // the placeholder
                let nameBytes = bytes[(index + 1)..<nameEnd]
                arguments.append(Argument(name: positionalName(nameBytes) ?? String(decoding: nameBytes, as: UTF8.self), type: typed ? .number : .string,
                                          offset: patternPoints + 1, typeWord: typed ? "number" : nil, style: integer ? " integer" : nil))
                patternPoints += end + 1 - index
                index = end + 1
                runStart = index
            }
            displayPoints += UTF8Words.codePoints(in: bytes, runStart..<bytes.count)
            return LintPattern(simpleArguments: arguments, pattern: pattern, headEnd: headEnd ?? bytes.count, tailStart: headEnd == nil ? 0 : runStart,
                               displayCodePoints: displayPoints)
        }
    }

    /// `arg1` … `arg9` when `name` is one of them (the names printf units' arguments get), as strings made once:
    /// decoding each name from its bytes was 2.0 of the 266 million instructions of `lookd lint` on one `lint-xliff`
    /// bench file (callgrind, 3 Dec 2026).
    private static func positionalName(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        guard name.count == 4 else { return nil }
        let start = name.startIndex
        guard name[start] == UInt8(ascii: "a"), name[start + 1] == UInt8(ascii: "r"), name[start + 2] == UInt8(ascii: "g"),
              (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(name[start + 3]) else { return nil }
        return positionalNames[Int(name[start + 3] - UInt8(ascii: "1"))]
    }

    private static let positionalNames = (1...9).map { "arg\($0)" }

    /// `parse` by ICU's parser, for any pattern.
    static func parseWithICU(_ pattern: String) -> Result<LintPattern, ParseFailure> {
        var itemCapacity = 32
        var namesCapacity = 512
        var displayCapacity = max(256, pattern.utf8.count * 2)
        while true {
            var error = lookd_parse_error()
            var summary = lookd_lint_summary()
            var result: Result<LintPattern, ParseFailure>?
            withUnsafeTemporaryAllocation(of: lookd_lint_item.self, capacity: itemCapacity) { items in
                withUnsafeTemporaryAllocation(of: CChar.self, capacity: namesCapacity) { names in
                    withUnsafeTemporaryAllocation(of: CChar.self, capacity: displayCapacity) { display in
                        let status = ICUText.withUTF8(pattern) {
                            lookd_lint_pattern($0, $1, &error, items.baseAddress, Int32(itemCapacity), names.baseAddress,
                                               Int32(namesCapacity), display.baseAddress, Int32(displayCapacity), &summary)
                        }
                        if status < 0 {
                            result = .failure(ParseFailure(name: MessageStructure.errorName(error), offset: Int(error.code_point_offset)))
                            return
                        }
                        guard Int(summary.item_count) <= itemCapacity, Int(summary.names_length) <= namesCapacity,
                              Int(summary.display_length) <= displayCapacity else { return }
                        result = .success(build(items: UnsafeBufferPointer(rebasing: items[..<Int(summary.item_count)]),
                                                names: UnsafeRawBufferPointer(names), display: UnsafeRawBufferPointer(display),
                                                summary: summary))
                    }
                }
            }
            if let result { return result }
            itemCapacity = max(itemCapacity, Int(summary.item_count))
            namesCapacity = max(namesCapacity, Int(summary.names_length))
            displayCapacity = max(displayCapacity, Int(summary.display_length))
        }
    }

    private static func build(items: UnsafeBufferPointer<lookd_lint_item>, names: UnsafeRawBufferPointer,
                              display: UnsafeRawBufferPointer, summary: lookd_lint_summary) -> LintPattern {
        var arguments: [Argument] = []
        var selectors: [Selector] = []
        for item in items {
            let text = String(decoding: names[Int(item.text_start)..<Int(item.text_start + item.text_length)], as: UTF8.self)
            if item.kind == 0 {
                func slice(_ start: Int32, _ length: Int32) -> String? {
                    start < 0 ? nil : String(decoding: names[Int(start)..<Int(start + length)], as: UTF8.self)
                }
                arguments.append(Argument(name: text, type: ArgumentType(shim: item.type), offset: Int(item.offset),
                                          typeWord: slice(item.type_start, item.type_length),
                                          style: slice(item.style_start, item.style_length)))
            } else {
                selectors.append(Selector(key: text, argument: Int(item.argument), offset: Int(item.offset)))
            }
        }
        return LintPattern(arguments: arguments, selectors: selectors,
                           displayText: String(decoding: display[..<Int(summary.display_length)], as: UTF8.self),
                           displayCodePoints: Int(summary.display_code_points))
    }

    /// Whether the pattern has arguments whose type or style only `icu::MessageFormat` checks.
    var needsMessageFormatValidation: Bool { arguments.contains { $0.type.needsMessageFormatValidation } }

    /// Each argument name once (first-use order) with the set of types it is used with.
    var argumentSignature: [(name: String, types: ArgumentTypeSet)] {
        // One argument (most messages that have any): nothing to merge.
        if arguments.count == 1 { return [(arguments[0].name, ArgumentTypeSet(arguments[0].type))] }
        var result: [(name: String, types: ArgumentTypeSet)] = []
        for argument in arguments {
            if let index = result.firstIndex(where: { $0.name == argument.name }) {
                result[index].types.insert(argument.type)
            } else {
                result.append((argument.name, ArgumentTypeSet(argument.type)))
            }
        }
        return result
    }
}

/// A small set of argument types (a bit mask).
struct ArgumentTypeSet: Hashable, Sendable {
    private(set) var bits: UInt16 = 0

    init() {}
    init(_ type: ArgumentType) { insert(type) }

    private static let order: [ArgumentType] = [.string, .number, .date, .time, .plural, .select, .selectordinal, .choice, .other]

    private static func bit(_ type: ArgumentType) -> UInt16 { 1 << UInt16(order.firstIndex(of: type)!) }

    mutating func insert(_ type: ArgumentType) { bits |= Self.bit(type) }

    func contains(_ type: ArgumentType) -> Bool { bits & Self.bit(type) != 0 }

    /// The types that matter: a plain `{name}` next to a typed use of the same argument adds nothing.
    var essential: ArgumentTypeSet {
        var copy = self
        if bits.nonzeroBitCount > 1 { copy.bits &= ~Self.bit(.string) }
        return copy
    }

    var types: [ArgumentType] { Self.order.filter(contains) }

    var description: String {
        types.map { $0 == .string ? "plain" : $0.rawValue }.joined(separator: " and ")
    }
}

extension ArgumentType {
    /// Types or styles that `icu::MessagePattern` accepts without checking and `icu::MessageFormat` may refuse.
    var needsMessageFormatValidation: Bool {
        switch self {
        case .number, .date, .time, .other, .choice, .selectordinal: true
        case .string, .plural, .select: false
        }
    }
}
