/// Reads one field's JSON value into its typed value, or says why it cannot. Pure functions.
///
/// A reading with a nil value means the field falls through to the next layer; a reading can carry problems
/// and still a value (a topic list that dropped an unknown preset but kept the rest).
struct FieldReading<Value> {
    var value: Value?
    var problems: [Problem] = []

    struct Problem {
        var field: String
        var code: Diagnostic.Code
        var message: String
    }

    static func failed(_ field: String, _ code: Diagnostic.Code, _ message: String) -> FieldReading {
        FieldReading(value: nil, problems: [Problem(field: field, code: code, message: message)])
    }
}

enum FieldReader {
    static func accent(_ json: JSONValue) -> FieldReading<AccentColor> {
        switch json {
        case .string(let text):
            guard let color = RGBColor(hex: text) else { return .failed("accent", .invalidColor, colorMessage(text)) }
            return FieldReading(value: AccentColor(color))
        case .object(let members):
            var problems: [FieldReading<AccentColor>.Problem] = []
            var colors: [String: RGBColor] = [:]
            for key in members.keys.sorted() {
                let path = "accent.\(key)"
                guard key == "light" || key == "dark" else {
                    problems.append(.init(field: path, code: .unknownField, message: "accent takes 'light' and 'dark'; '\(key)' is ignored"))
                    continue
                }
                guard case .string(let text) = members[key]! else {
                    problems.append(.init(field: path, code: .invalidType, message: "expected a colour string like \"#3550E6\", got a \(members[key]!.typeName)"))
                    continue
                }
                guard let color = RGBColor(hex: text) else {
                    problems.append(.init(field: path, code: .invalidColor, message: colorMessage(text)))
                    continue
                }
                colors[key] = color
            }
            if problems.contains(where: { $0.code.severity == .error }) { return FieldReading(value: nil, problems: problems) }
            guard let light = colors["light"] ?? colors["dark"] else {
                problems.append(.init(field: "accent", code: .missingValue, message: "accent as an object needs 'light', 'dark' or both"))
                return FieldReading(value: nil, problems: problems)
            }
            return FieldReading(value: AccentColor(light: light, dark: colors["dark"] ?? light), problems: problems)
        default:
            return .failed("accent", .invalidType, "expected a colour string or {\"light\": …, \"dark\": …}, got a \(json.typeName)")
        }
    }

    static func choice<Choice: RawRepresentable & CaseIterable>(_ json: JSONValue, field: LookField, as _: Choice.Type) -> FieldReading<Choice> where Choice.RawValue == String {
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
        guard case .string(let text) = json else {
            return .failed("appName", .invalidType, "expected a string, got a \(json.typeName)")
        }
        return teamText(text, field: "appName", limit: LookLimits.appName)
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

    static func localizedText(_ json: JSONValue, field: String, limit: Int) -> FieldReading<LocalizedText> {
        switch json {
        case .string(let value):
            return teamText(value, field: field, limit: limit).map { .text($0) }
        case .object(let members):
            guard !members.isEmpty else {
                return .failed(field, .emptyValue, "expected at least one language, e.g. {\"en\": \"…\"}")
            }
            guard members.count <= LookLimits.localizedEntries else {
                return .failed(field, .tooLong, "more than \(LookLimits.localizedEntries) languages")
            }
            var texts: [String: String] = [:]
            var problems: [FieldReading<LocalizedText>.Problem] = []
            for tag in members.keys.sorted() {
                let path = "\(field).\(tag)"
                guard isLanguageTag(tag) else {
                    problems.append(.init(field: path, code: .invalidLocale, message: "'\(clip(tag))' is not a language tag like en, pt-BR or zh-Hant"))
                    continue
                }
                guard case .string(let value) = members[tag]! else {
                    problems.append(.init(field: path, code: .invalidType, message: "expected a string, got a \(members[tag]!.typeName)"))
                    continue
                }
                let reading = teamText(value, field: path, limit: limit)
                problems += reading.problems.map { .init(field: $0.field, code: $0.code, message: $0.message) }
                if let value = reading.value { texts[tag] = value }
            }
            guard problems.isEmpty else { return FieldReading(value: nil, problems: problems) }
            return FieldReading(value: .localized(texts))
        default:
            return .failed(field, .invalidType, "expected a string or an object of language tag → string, got a \(json.typeName)")
        }
    }

    static func topics(_ json: JSONValue) -> FieldReading<[Topic]> {
        guard case .array(let items) = json else {
            return .failed("topics", .invalidType, "expected an array of topics, got a \(json.typeName)")
        }
        var problems: [FieldReading<[Topic]>.Problem] = []
        var topics: [Topic] = []
        var seen: Set<String> = []
        for (index, item) in items.enumerated() {
            let path = "topics[\(index)]"
            let reading = topic(item, path: path)
            problems += reading.problems.map { .init(field: $0.field, code: $0.code, message: $0.message) }
            guard let topic = reading.value else { continue }
            if !seen.insert(topic.id).inserted {
                problems.append(.init(field: "\(path).id", code: .duplicateTopicID, message: "the id '\(topic.id)' is used by an earlier topic; ids must be unique"))
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

    static func topic(_ json: JSONValue, path: String) -> FieldReading<Topic> {
        if case .string(let name) = json {
            guard let preset = Topic.presets[name] else {
                let known = Topic.presets.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
                return .failed(path, .unknownValue, "unknown preset '\(clip(name))' (this version knows \(known)); ignored")
            }
            return FieldReading(value: preset)
        }
        guard case .object(let members) = json else {
            return .failed(path, .invalidType, "expected a preset name or {id, label, symbol, prefill}, got a \(json.typeName)")
        }
        var problems: [FieldReading<Topic>.Problem] = []
        for key in members.keys.sorted() where !["id", "label", "symbol", "prefill"].contains(key) {
            problems.append(.init(field: "\(path).\(key)", code: .unknownField, message: "a topic has id, label, symbol and prefill; '\(clip(key))' is ignored"))
        }
        var id: String?
        switch members["id"] {
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
        if let json = members["label"], json != .null {
            let reading = localizedText(json, field: "\(path).label", limit: LookLimits.topicLabel)
            problems += reading.problems.map { .init(field: $0.field, code: $0.code, message: $0.message) }
            label = reading.value
        } else {
            problems.append(.init(field: "\(path).label", code: .missingValue, message: "a topic needs a label"))
        }
        var symbol = "bubble.left"
        switch members["symbol"] {
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
        if let json = members["prefill"], json != .null {
            let reading = localizedText(json, field: "\(path).prefill", limit: LookLimits.topicPrefill)
            problems += reading.problems.map { .init(field: $0.field, code: $0.code, message: $0.message) }
            prefill = reading.value
        }
        guard !problems.contains(where: { $0.code.severity == .error }), let id, let label else {
            return FieldReading(value: nil, problems: problems)
        }
        return FieldReading(value: Topic(id: id, label: label, symbol: symbol, prefill: prefill), problems: problems)
    }

    // MARK: - Grammar

    /// Team text: trimmed of surrounding white space; not empty; no control characters; at most `limit` scalars.
    static func teamText(_ value: String, field: String, limit: Int) -> FieldReading<String> {
        let trimmed = value.trimmingWhitespace()
        guard !trimmed.isEmpty else { return .failed(field, .emptyValue, "must not be empty") }
        guard trimmed.unicodeScalars.count <= limit else {
            return .failed(field, .tooLong, "\(trimmed.unicodeScalars.count) characters; at most \(limit)")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failed(field, .invalidValue, "contains a control character")
        }
        return FieldReading(value: trimmed)
    }

    /// `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`
    static func isTopicID(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard (1...64).contains(bytes.count), isAlphanumeric(bytes[0]) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
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
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false).map { Array($0.utf8) }
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy(isLetter) else { return false }
        var rest = parts.dropFirst()
        if let script = rest.first, script.count == 4, script.allSatisfy(isLetter) { rest = rest.dropFirst() }
        if let region = rest.first {
            let isRegion = (region.count == 2 && region.allSatisfy(isLetter)) || (region.count == 3 && region.allSatisfy(isDigit))
            guard isRegion else { return false }
            rest = rest.dropFirst()
        }
        return rest.isEmpty
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

extension FieldReading {
    func map<Other>(_ transform: (Value) -> Other) -> FieldReading<Other> {
        FieldReading<Other>(value: value.map(transform), problems: problems.map { .init(field: $0.field, code: $0.code, message: $0.message) })
    }
}

extension String {
    /// Without leading and trailing white space and newlines (Unicode White_Space).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}
