import StableJSON

/// Reads one field's JSON value into its typed value, or says why it cannot. Pure functions.
///
/// A reading with a nil value means the field falls through to the next layer; a reading can carry problems
/// and still a value (a topic list that dropped an unknown preset but kept the rest).
struct FieldReading<Value> {
    var value: Value?
    /// The problems; nil when there are none, the common case, so that a clean reading holds no array whose
    /// references are counted as it is made, moved and dropped.
    private(set) var problemList: [Problem]?

    /// The problems, in order; empty when there are none.
    var problems: [Problem] { problemList ?? [] }

    init(value: Value?) {
        self.value = value
    }

    init(value: Value?, problems: [Problem]) {
        self.value = value
        problemList = problems.isEmpty ? nil : problems
    }

    struct Problem {
        var field: String
        var code: Diagnostic.Code
        var message: String
    }

    static func failed(_ field: String, _ code: Diagnostic.Code, _ message: String) -> FieldReading {
        FieldReading(value: nil, problems: [Problem(field: field, code: code, message: message)])
    }
}

/// Each reader takes its JSON value as a borrowed argument and walks an object's members in place
/// (`object.members[index]`) instead of iterating copies of them; what the look keeps (a string it stores)
/// counts one reference.
enum FieldReader {
    static func accent(_ json: JSONValue) -> FieldReading<AccentColor> {
        switch json {
        case .string(let text):
            guard let color = RGBColor(hex: text) else { return .failed("accent", .invalidColor, colorMessage(text)) }
            return FieldReading(value: AccentColor(color))
        case .object(let object):
            var problems: [FieldReading<AccentColor>.Problem] = []
            var light: RGBColor?, dark: RGBColor?
            var unknown: [String] = []
            // One pass over the members, in place: the two colours, and every other key as unknown.
            for index in object.members.indices {
                let key = object.members[index].key
                let isLight = key == "light"
                guard isLight || key == "dark" else {
                    unknown.append(key)
                    continue
                }
                guard case .string(let text) = object.members[index].value else {
                    problems.append(.init(field: "accent.\(key)", code: .invalidType, message: "expected a colour string like \"#3550E6\", got a \(object.members[index].value.typeName)"))
                    continue
                }
                guard let color = RGBColor(hex: text) else {
                    problems.append(.init(field: "accent.\(key)", code: .invalidColor, message: colorMessage(text)))
                    continue
                }
                if isLight { light = color } else { dark = color }
            }
            // Stable order whatever the members' order: dark before light, then unknown keys (already sorted).
            if problems.count > 1 { problems.sort { $0.field < $1.field } }
            for key in unknown {
                problems.append(.init(field: "accent.\(key)", code: .unknownField, message: "accent takes 'light' and 'dark'; '\(clip(key))' is ignored"))
            }
            if problems.contains(where: { $0.code.severity == .error }) { return FieldReading(value: nil, problems: problems) }
            guard let either = light ?? dark else {
                problems.append(.init(field: "accent", code: .missingValue, message: "accent as an object needs 'light', 'dark' or both"))
                return FieldReading(value: nil, problems: problems)
            }
            return FieldReading(value: AccentColor(light: either, dark: dark ?? either), problems: problems)
        case let other:
            return .failed("accent", .invalidType, "expected a colour string or {\"light\": …, \"dark\": …}, got a \(other.typeName)")
        }
    }

    static func choice<Choice: RawRepresentable<String> & CaseIterable>(_ json: JSONValue, field: LookField, as _: Choice.Type) -> FieldReading<Choice> {
        guard case .string(let text) = json else {
            return .failed(field.rawValue, .invalidType, "expected a string, got a \(json.typeName)")
        }
        guard let value = Choice(rawValue: text) else {
            let known = Choice.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            return .failed(field.rawValue, .unknownValue, "unknown value '\(clip(text))' (this version knows \(known)); ignored")
        }
        return FieldReading(value: value)
    }

    static func bool(_ json: JSONValue, field: LookField) -> FieldReading<Bool> {
        guard case .bool(let value) = json else {
            return .failed(field.rawValue, .invalidType, "expected true or false, got a \(json.typeName)")
        }
        return FieldReading(value: value)
    }

    static func appName(_ json: JSONValue) -> FieldReading<String> {
        switch json {
        case .string(let text): teamText(text, limit: LookLimits.appName, label: true).reading(field: "appName")
        case let other: .failed("appName", .invalidType, "expected a string, got a \(other.typeName)")
        }
    }

    static func appIconUrl(_ json: JSONValue) -> FieldReading<String> {
        guard case .string(let url) = json else {
            return .failed("appIconUrl", .invalidType, "expected an https URL string, got a \(json.typeName)")
        }
        guard url.unicodeScalars.count <= LookLimits.url else {
            return .failed("appIconUrl", .tooLong, "longer than \(LookLimits.url) characters")
        }
        let lower = url.lowercased()
        let host = lower.hasPrefix("https://") ? lower.dropFirst(8).prefix { $0 != "/" && $0 != "?" && $0 != "#" } : ""
        let clean = url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "<" && $0 != ">" && $0 != "\\" }
        guard !host.isEmpty, clean, !host.contains("@") else {
            return .failed("appIconUrl", .invalidURL, "expected an absolute https URL with a host and no spaces, got '\(clip(url))'")
        }
        return FieldReading(value: url)
    }

    /// - Parameter label: whether the text is a label (refuses bidi controls, see ``teamText(_:limit:label:)``).
    static func localizedText(_ json: JSONValue, field: @autoclosure () -> String, limit: Int, label: Bool = false) -> FieldReading<LocalizedText> {
        switch json {
        case .string(let value):
            switch teamText(value, limit: limit, label: label) {
            case .success(let text): return FieldReading(value: .text(text))
            case .failure(let problem): return .failed(field(), problem.code, problem.message)
            }
        case .object(let members):
            guard !members.isEmpty else {
                return .failed(field(), .emptyValue, "expected at least one language, e.g. {\"en\": \"…\"}")
            }
            guard members.count <= LookLimits.localizedEntries else {
                return .failed(field(), .tooLong, "more than \(LookLimits.localizedEntries) languages")
            }
            // Made only once trimming changed a text (nil until then): else the texts are the object itself,
            // shared, not copied.
            var trimmed: JSONObject?
            var problems: [FieldReading<LocalizedText>.Problem] = []
            for index in members.members.indices {
                let tag = members.members[index].key
                guard isLanguageTag(tag) else {
                    problems.append(.init(field: "\(field()).\(tag)", code: .invalidLocale, message: "'\(clip(tag))' is not a language tag like en, pt-BR or zh-Hant"))
                    continue
                }
                guard case .string(let value) = members.members[index].value else {
                    problems.append(.init(field: "\(field()).\(tag)", code: .invalidType, message: "expected a string, got a \(members.members[index].value.typeName)"))
                    continue
                }
                let count = value.utf8.count
                switch teamText(value, limit: limit, label: label) {
                case .success(let text):
                    if trimmed == nil, text.utf8.count != count { trimmed = members }
                    if trimmed != nil { trimmed![tag] = .string(text) }
                case .failure(let problem): problems.append(.init(field: "\(field()).\(tag)", code: problem.code, message: problem.message))
                }
            }
            guard problems.isEmpty else {
                return FieldReading(value: nil, problems: problems.sorted { $0.field < $1.field })
            }
            return FieldReading(value: .localized(LanguageTexts(strings: trimmed ?? members)))
        default:
            return .failed(field(), .invalidType, "expected a string or an object of language tag → string, got a \(json.typeName)")
        }
    }

    static func topics(_ json: JSONValue) -> FieldReading<[Topic]> {
        guard case .array(let items) = json else {
            return .failed("topics", .invalidType, "expected an array of topics, got a \(json.typeName)")
        }
        // Unknown presets are dropped before counting, so a few more than six may still resolve; far more cannot.
        guard items.count <= Topic.maximumCount * 4 else {
            return .failed("topics", .tooManyTopics, "\(items.count) topics; at most \(Topic.maximumCount) show")
        }
        var problems: [FieldReading<[Topic]>.Problem] = []
        var topics: [Topic] = []
        topics.reserveCapacity(items.count)
        for index in items.indices {
            var reading = topic(items[index], index: index)
            if let list = reading.problemList { problems += list.map { .init(field: $0.field, code: $0.code, message: $0.message) } }
            // Moved out, not copied: a topic holds several strings.
            guard let topic = reading.value.take() else { continue }
            if topics.contains(where: { $0.id == topic.id }) {
                problems.append(.init(field: "topics[\(index)].id", code: .duplicateTopicID, message: "the id '\(topic.id)' is used by an earlier topic; ids must be unique"))
                continue
            }
            topics.append(topic)
        }
        if topics.count > Topic.maximumCount {
            problems.append(.init(field: "topics", code: .tooManyTopics, message: "\(topics.count) topics; at most \(Topic.maximumCount) show"))
        }
        if problems.contains(where: { $0.code.severity == .error }) { return FieldReading(value: nil, problems: problems) }
        return FieldReading(value: topics, problems: problems)
    }

    static func topic(_ json: JSONValue, index: Int) -> FieldReading<Topic> {
        var path: String { "topics[\(index)]" }
        let members: JSONObject
        switch json {
        case .string(let name):
            guard let preset = Topic.presets[name] else {
                let known = Topic.presets.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
                return .failed(path, .unknownValue, "unknown preset '\(clip(name))' (this version knows \(known)); ignored")
            }
            return FieldReading(value: preset)
        case .object(let value): members = value
        default: return .failed(path, .invalidType, "expected a preset name or {id, label, symbol, prefill}, got a \(json.typeName)")
        }
        var problems: [FieldReading<Topic>.Problem] = []
        // Where each known member is, if present: read in place below, not copied out.
        var idAt: Int?, labelAt: Int?, symbolAt: Int?, prefillAt: Int?
        // One pass over the members (no hashing); unknown keys come sorted, as the members are.
        for member in members.members.indices {
            let key = members.members[member].key
            switch key {
            case "id": idAt = member
            case "label": labelAt = member
            case "symbol": symbolAt = member
            case "prefill": prefillAt = member
            default:
                problems.append(.init(field: "\(path).\(key)", code: .unknownField, message: "a topic has id, label, symbol and prefill; '\(clip(key))' is ignored"))
            }
        }
        var id: String?
        switch idAt.map({ members.members[$0].value }) {
        case nil, .null?:
            problems.append(.init(field: "\(path).id", code: .missingValue, message: "a topic needs an id"))
        case .string(let value)?:
            if isTopicID(value) { id = value } else {
                problems.append(.init(field: "\(path).id", code: .invalidTopicID, message: "'\(clip(value))' must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"))
            }
        case let other?:
            problems.append(.init(field: "\(path).id", code: .invalidType, message: "expected a string, got a \(other.typeName)"))
        }
        var label: LocalizedText?
        if let labelAt, !members.members[labelAt].value.isNull {
            let reading = localizedText(members.members[labelAt].value, field: "\(path).label", limit: LookLimits.topicLabel, label: true)
            if let list = reading.problemList { problems += list.map { .init(field: $0.field, code: $0.code, message: $0.message) } }
            label = reading.value
        } else {
            problems.append(.init(field: "\(path).label", code: .missingValue, message: "a topic needs a label"))
        }
        var symbol = "bubble.left"
        switch symbolAt.map({ members.members[$0].value }) {
        case nil, .null?:
            break
        case .string(let value)?:
            if isSymbolName(value) { symbol = value } else {
                problems.append(.init(field: "\(path).symbol", code: .invalidValue, message: "'\(clip(value))' is not an SF Symbol name like 'creditcard' or 'bubble.left'"))
            }
        case let other?:
            problems.append(.init(field: "\(path).symbol", code: .invalidType, message: "expected a string, got a \(other.typeName)"))
        }
        var prefill: LocalizedText?
        if let prefillAt, !members.members[prefillAt].value.isNull {
            let reading = localizedText(members.members[prefillAt].value, field: "\(path).prefill", limit: LookLimits.topicPrefill)
            if let list = reading.problemList { problems += list.map { .init(field: $0.field, code: $0.code, message: $0.message) } }
            prefill = reading.value
        }
        guard !problems.contains(where: { $0.code.severity == .error }), let id, let label else {
            return FieldReading(value: nil, problems: problems)
        }
        return FieldReading(value: Topic(id: id, label: label, symbol: symbol, prefill: prefill), problems: problems)
    }

    // MARK: - Grammar

    /// Why a text was refused, before it is known which field it belongs to.
    struct TextProblem: Error {
        var code: Diagnostic.Code
        var message: String
    }

    /// Team text: trimmed of surrounding white space; not empty; no control characters; at least one visible
    /// character (``VisibleText/isVisible(_:)``, else `invisible_text`); at most `limit` scalars. A `label` (an
    /// app name, a topic label) also refuses bidi controls (`bidi_control`, see ``VisibleText/isBidiControl(_:)``):
    /// they are refused rather than removed, so what is shown is always exactly what the team wrote.
    static func teamText(_ value: String, limit: Int, label: Bool = false) -> Result<String, TextProblem> {
        // Printable ASCII that starts and ends with a visible character, most names and labels: nothing to trim,
        // no control or bidi character, visible, and its length is its byte count. (Without this the scalar loop
        // below costs a resolve about 2,000 instructions; callgrind, docs/benchmarks.md.)
        let isPlainASCII = value.utf8.withContiguousStorageIfAvailable { bytes in
            guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else { return false }
            return bytes.allSatisfy { (0x20...0x7E).contains($0) }
        }
        if isPlainASCII == true {
            let count = value.utf8.count
            guard count <= limit else {
                return .failure(TextProblem(code: .tooLong, message: "\(count) characters; at most \(limit)"))
            }
            return .success(value)
        }
        let trimmed = value.trimmingWhitespace()
        guard !trimmed.isEmpty else { return .failure(TextProblem(code: .emptyValue, message: "must not be empty")) }
        var count = 0
        var visible = false
        var bidiControl: Unicode.Scalar?
        for scalar in trimmed.unicodeScalars {
            guard !isControl(scalar) else {
                return .failure(TextProblem(code: .invalidValue, message: "contains a control character"))
            }
            if !visible { visible = VisibleText.isVisible(scalar) }
            if label, bidiControl == nil, VisibleText.isBidiControl(scalar) { bidiControl = scalar }
            count += 1
        }
        guard visible else {
            let scalars = trimmed.unicodeScalars.prefix(8).map { "U+\(hex($0))" }.joined(separator: " ")
            return .failure(TextProblem(code: .invisibleText, message: "has no visible character (\(scalars)\(count > 8 ? " …" : ""))"))
        }
        if let bidiControl {
            return .failure(TextProblem(code: .bidiControl, message: "contains the bidi control U+\(hex(bidiControl)); names and labels may not reorder text (the chat isolates them itself)"))
        }
        guard count <= limit else {
            return .failure(TextProblem(code: .tooLong, message: "\(count) characters; at most \(limit)"))
        }
        return .success(trimmed)
    }


    /// A scalar's code point as 4 to 6 uppercase hex digits.
    static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Unicode general category Cc: U+0000–U+001F and U+007F–U+009F (no property lookup needed).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }

    /// `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`
    @inline(__always)
    static func isTopicID(_ value: String) -> Bool {
        func matches(_ bytes: some Collection<UInt8>) -> Bool {
            guard (1...64).contains(bytes.count), let first = bytes.first, isAlphanumeric(first) else { return false }
            return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
        }
        return value.utf8.withContiguousStorageIfAvailable(matches) ?? matches(value.utf8)
    }

    /// An SF Symbol name: lowercase letters and digits in dot-separated parts, at most 64 characters.
    static func isSymbolName(_ value: String) -> Bool {
        guard (1...LookLimits.symbol).contains(value.utf8.count) else { return false }
        return value.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
    }

    /// language[-Script][-REGION]: `en`, `pt-BR`, `zh-Hant`, `zh-Hant-HK`, `es-419`.
    static func isLanguageTag(_ tag: String) -> Bool {
        // Native and small strings are contiguous: the bytes without an iterator.
        tag.utf8.withContiguousStorageIfAvailable(isLanguageTag) ?? isLanguageTag(Array(tag.utf8))
    }

    /// ``isLanguageTag(_:)`` over the tag's UTF-8 bytes.
    private static func isLanguageTag(_ bytes: some RandomAccessCollection<UInt8>) -> Bool {
        // Walks the subtags in order, without collecting them: each must fit the next allowed position
        // (0 language, 1 script or region, 2 region, 3 nothing more).
        var position = 0
        var length = 0, letters = true, digits = true
        var index = bytes.startIndex
        while true {
            let byte: UInt8? = index == bytes.endIndex ? nil : bytes[index]
            if index != bytes.endIndex { index = bytes.index(after: index) }
            guard let byte, byte != UInt8(ascii: "-") else {
                let isRegion = (length == 2 && letters) || (length == 3 && digits)
                switch position {
                case 0 where (2...3).contains(length) && letters: position = 1
                case 1 where length == 4 && letters: position = 2
                case 1 where isRegion, 2 where isRegion: position = 3
                default: return false
                }
                if byte == nil { return true }
                length = 0
                letters = true
                digits = true
                continue
            }
            length += 1
            letters = letters && isLetter(byte)
            digits = digits && isDigit(byte)
        }
    }

    static func colorMessage(_ text: String) -> String {
        "'\(clip(text))' is not a colour: use #RRGGBB, #RGB or #RRGGBBFF (opaque)"
    }

    /// Quotes at most 40 characters of team input back in a message.
    static func clip(_ text: String) -> String {
        text.unicodeScalars.count <= 40 ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…"
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
}

extension Result where Failure == FieldReader.TextProblem {
    func reading(field: @autoclosure () -> String) -> FieldReading<Success> {
        switch self {
        case .success(let value): FieldReading(value: value)
        case .failure(let problem): .failed(field(), problem.code, problem.message)
        }
    }
}


extension String {
    /// Without leading and trailing white space and newlines (Unicode White_Space).
    func trimmingWhitespace() -> String {
        // Nothing to trim when both ends are ASCII and not white space (no Unicode lookups then).
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return self }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isWhitespace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !Self.isWhitespace($0) })!
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return self }
        return String(scalars[first...last])
    }

    /// Unicode White_Space, with ASCII answered without a property lookup.
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
        return scalar.properties.isWhitespace
    }
}
