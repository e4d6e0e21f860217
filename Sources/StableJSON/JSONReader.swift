/// A strict reader of RFC 8259 JSON. It accepts exactly the grammar: UTF-8 only (a byte order mark, UTF-16 or
/// UTF-32 is refused), no trailing commas, no comments, no single quotes, no `NaN`; a duplicate key in an object,
/// a raw control character in a string, malformed UTF-8 and `\u` escapes of lone surrogates are errors. Numbers
/// keep their literal text (``JSONNumber``). Keys are compared as Swift strings, so two canonically equivalent
/// spellings of one key (`"é"` precomposed and decomposed) are the same key, and naming both is a duplicate. One
/// pass over the bytes; an object's members are sorted as they are read (``JSONObject``): linear time when its
/// keys arrive sorted, O(n log n) otherwise. The ``Limits`` bound depth, string length and the number of values.
///
/// Pure and thread-safe: every call is independent.
///
/// ```swift
/// let value = try JSONReader.read(Array(#"{"accent": "#3550E6"}"#.utf8))
/// value["accent"]?.stringValue   // "#3550E6"
/// ```
public enum JSONReader {
    /// Bounds on what one read may build. Exceeding one is an error (``JSONReadError/Code/depthLimit``,
    /// ``JSONReadError/Code/stringLimit``, ``JSONReadError/Code/valueLimit``), never a truncated value.
    public struct Limits: Sendable, Hashable {
        /// Arrays and objects nested at most this deep; the top-level value is depth 1. Clamped to 1...512
        /// (the reader recurses once per level).
        public var maxDepth: Int
        /// The most UTF-8 bytes in one string (after unescaping) or one number literal.
        public var maxStringBytes: Int
        /// The most values plus object keys in the whole input.
        public var maxValues: Int

        public init(maxDepth: Int = 128, maxStringBytes: Int = 1 << 20, maxValues: Int = 1_000_000) {
            self.maxDepth = min(max(maxDepth, 1), 512)
            self.maxStringBytes = max(maxStringBytes, 0)
            self.maxValues = max(maxValues, 1)
        }

        /// Depth 128, 1 MiB per string, 1,000,000 values.
        public static let `default` = Limits()
    }

    /// Reads one JSON text (a value with optional white space around it) from `bytes`.
    /// - Throws: ``JSONReadError`` with the first problem found and its position.
    public static func read(_ bytes: some Collection<UInt8>, limits: Limits = .default) throws -> JSONValue {
        let result: Result<JSONValue, JSONReadError>? = bytes.withContiguousStorageIfAvailable { read(buffer: $0, limits: limits) }
        switch result ?? Array(bytes).withUnsafeBufferPointer({ read(buffer: $0, limits: limits) }) {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }

    /// Reads one JSON text from the bytes of `buffer`, which must stay valid for the call.
    public static func read(_ buffer: UnsafeRawBufferPointer, limits: Limits = .default) throws -> JSONValue {
        try read(buffer: buffer.bindMemory(to: UInt8.self), limits: limits).get()
    }

    private static func read(buffer: UnsafeBufferPointer<UInt8>, limits: Limits) -> Result<JSONValue, JSONReadError> {
        var parser = JSONParser(bytes: buffer, limits: limits)
        do throws(JSONParser.Failure) {
            return .success(try parser.document())
        } catch {
            return .failure(JSONParser.error(error, in: buffer))
        }
    }
}

/// The recursive-descent parser behind ``JSONReader``: one instance per read.
struct JSONParser {
    /// A problem and its byte offset; line and column are computed only when it is reported.
    struct Failure: Error {
        var code: JSONReadError.Code
        var message: String
        var offset: Int
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONReader.Limits
    var index = 0
    var depth = 0
    var values = 0
    /// Reused for strings with escapes.
    var scratch: [UInt8] = []
    /// The last position handed out (``position(at:)``), from which the next one is counted.
    var cursor = JSONPosition.start
    /// Recover from the defects ``JSONReader/DocumentOptions/recoversFromStringDefects`` names, listing them in
    /// `recovered` instead of throwing.
    var recovers = false
    var recovered: [Failure] = []

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONReader.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    static func error(_ failure: Failure, in bytes: UnsafeBufferPointer<UInt8>) -> JSONReadError {
        var line = 1, column = 1
        for byte in bytes[0..<min(failure.offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONReadError(code: failure.code, message: failure.message, line: line, column: column, offset: failure.offset)
    }

    func fail(_ code: JSONReadError.Code, _ message: String, at offset: Int? = nil) -> Failure {
        Failure(code: code, message: message, offset: offset ?? index)
    }

    mutating func document() throws(Failure) -> JSONValue {
        try checkEncoding()
        skipWhitespace()
        let value = try self.value()
        skipWhitespace()
        guard index == bytes.count else {
            throw fail(.trailingContent, "unexpected \(describe(bytes[index])) after the JSON value")
        }
        return value
    }

    /// A BOM, or a zero byte among the first two (UTF-16/UTF-32 of an ASCII character), names the encoding error.
    func checkEncoding() throws(Failure) {
        let count = bytes.count
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw fail(.invalidEncoding, "a UTF-8 byte order mark starts the input; JSON is UTF-8 without one", at: 0)
        }
        if count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw fail(.invalidEncoding, "the input is UTF-16 (it starts with a byte order mark); JSON is UTF-8", at: 0)
        }
        if count >= 2, bytes[0] == 0 || bytes[1] == 0 {
            throw fail(.invalidEncoding, "the input looks like UTF-16 or UTF-32 (a zero byte at its start); JSON is UTF-8", at: 0)
        }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func value() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw fail(.unexpectedEnd, "the input ends where a value should start") }
        values += 1
        guard values <= limits.maxValues else { throw fail(.valueLimit, "more than \(limits.maxValues) values and keys") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "/"): throw fail(.unexpectedCharacter, "comments are not JSON")
        case UInt8(ascii: "'"): throw fail(.unexpectedCharacter, "strings are quoted with \", not '")
        default: throw fail(.unexpectedCharacter, "unexpected \(describe(bytes[index])) where a value should start")
        }
    }

    mutating func word(_ text: StaticString) throws(Failure) {
        let count = text.utf8CodeUnitCount
        let start = text.utf8Start
        for offset in 0..<count {
            guard index + offset < bytes.count else { throw fail(.unexpectedEnd, "the input ends inside '\(text)'") }
            guard bytes[index + offset] == start[offset] else {
                throw fail(.unexpectedCharacter, "expected a value (true, false, null, a number, a string, an array or an object)")
            }
        }
        index += count
    }

    /// Steps into an array or object at its opening bracket: true when it is empty (and already stepped out of).
    mutating func enter(closing: UInt8) throws(Failure) -> Bool {
        depth += 1
        guard depth <= limits.maxDepth else { throw fail(.depthLimit, "arrays and objects nested deeper than \(limits.maxDepth)") }
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closing else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// After an element or member: true at the closing bracket (stepped out of), false after a comma (stepped
    /// over; the closing bracket may not follow it).
    mutating func closes(_ closing: UInt8, _ what: String) throws(Failure) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw fail(.unexpectedEnd, "the input ends inside an \(what)") }
        switch bytes[index] {
        case UInt8(ascii: ","):
            let comma = index
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == closing { throw fail(.trailingComma, "a comma before '\(Character(Unicode.Scalar(closing)))'", at: comma) }
            return false
        case closing:
            index += 1
            depth -= 1
            return true
        default:
            throw fail(.unexpectedCharacter, "expected ',' or '\(Character(Unicode.Scalar(closing)))' in an \(what), got \(describe(bytes[index]))")
        }
    }

    mutating func array() throws(Failure) -> JSONValue {
        var elements: [JSONValue] = []
        if try enter(closing: UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            elements.append(try value())
        } while try !closes(UInt8(ascii: "]"), "array")
        return .array(elements)
    }

    mutating func object() throws(Failure) -> JSONValue {
        var members = JSONObjectBuilder()
        if try enter(closing: UInt8(ascii: "}")) { return .object(members.object()) }
        repeat {
            let (key, keyOffset) = try memberKey()
            let member = try value()
            guard members.add(key, member) else {
                throw fail(.duplicateKey, "the key \"\(Self.clip(key))\" appears twice in one object", at: keyOffset)
            }
        } while try !closes(UInt8(ascii: "}"), "object")
        return .object(members.object())
    }

    /// A member's key at `index`, the colon and the white space after it: the key and its quote's offset.
    mutating func memberKey() throws(Failure) -> (key: String, offset: Int) {
        guard index < bytes.count else { throw fail(.unexpectedEnd, "the input ends inside an object") }
        guard bytes[index] == UInt8(ascii: "\"") else {
            throw fail(.unexpectedCharacter, "expected a key in double quotes, got \(describe(bytes[index]))")
        }
        let keyOffset = index
        values += 1
        guard values <= limits.maxValues else { throw fail(.valueLimit, "more than \(limits.maxValues) values and keys") }
        let key = try string()
        skipWhitespace()
        guard index < bytes.count else { throw fail(.unexpectedEnd, "the input ends inside an object") }
        guard bytes[index] == UInt8(ascii: ":") else { throw fail(.unexpectedCharacter, "expected ':' after a key, got \(describe(bytes[index]))") }
        index += 1
        skipWhitespace()
        return (key, keyOffset)
    }

    mutating func number() throws(Failure) -> JSONNumber {
        let length = JSONNumberGrammar.length(of: bytes, from: index)
        guard length > 0 else { throw fail(.invalidNumber, "not a JSON number (RFC 8259: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?)") }
        guard length <= limits.maxStringBytes else { throw fail(.stringLimit, "a number longer than \(limits.maxStringBytes) bytes") }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + length]), as: UTF8.self)
        index += length
        return JSONNumber(validLiteral: literal)
    }

    /// A string starting at the opening quote; leaves `index` after the closing quote.
    mutating func string() throws(Failure) -> String {
        let start = index + 1
        index = start
        let count = bytes.count
        // Fast path: no escapes. Stops at the closing quote or at the first backslash.
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard index - start <= limits.maxStringBytes else { throw fail(.stringLimit, "a string longer than \(limits.maxStringBytes) bytes", at: start - 1) }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { try controlCharacter(byte) }
            if byte < 0x80 { index += 1 } else { try utf8Sequence() }
        }
        guard index < count else { throw fail(.unexpectedEnd, "the input ends inside a string", at: start - 1) }
        // Slow path: copy what was scanned, then unescape.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard scratch.count <= limits.maxStringBytes else { throw fail(.stringLimit, "a string longer than \(limits.maxStringBytes) bytes", at: start - 1) }
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape()
            case 0..<0x80:
                if byte < 0x20 { try controlCharacter(byte) }
                scratch.append(byte)
                index += 1
            default:
                let sequenceStart = index
                try utf8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<index]))
            }
            if scratch.count > limits.maxStringBytes { throw fail(.stringLimit, "a string longer than \(limits.maxStringBytes) bytes", at: start - 1) }
        }
        throw fail(.unexpectedEnd, "the input ends inside a string", at: start - 1)
    }

    /// One escape sequence at `index` (a backslash), appended to `scratch` as UTF-8.
    mutating func escape() throws(Failure) {
        let escapeStart = index
        guard index + 1 < bytes.count else { throw fail(.unexpectedEnd, "the input ends inside an escape") }
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad(escapeStart)
            if (0xDC00...0xDFFF).contains(scalar) {
                scalar = try loneSurrogate(fail(.loneSurrogate, "\\u\(Self.hex(scalar, digits: 4)) is a low surrogate without a high one before it", at: escapeStart))
            } else if (0xD800...0xDBFF).contains(scalar) {
                let lowStart = index
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try hexQuad(lowStart)
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = lowStart
                    }
                }
                if index == lowStart {
                    scalar = try loneSurrogate(fail(.loneSurrogate, "\\u\(Self.hex(scalar, digits: 4)) is a high surrogate without a low one after it", at: escapeStart))
                }
            }
            appendUTF8(scalar)
        default:
            throw fail(.invalidEscape, "\\\(Self.describeRaw(letter)) is not a JSON escape (use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)", at: escapeStart)
        }
    }

    /// A raw control character at `index`: an error, or listed when recovering (the string keeps it).
    mutating func controlCharacter(_ byte: UInt8) throws(Failure) {
        let failure = fail(.controlCharacter, "a raw control character (U+\(Self.hex(UInt32(byte), digits: 4))) in a string; escape it")
        guard recovers else { throw failure }
        recovered.append(failure)
    }

    /// A `\u` escape of a lone surrogate: an error, or listed when recovering and read as U+FFFD.
    mutating func loneSurrogate(_ failure: Failure) throws(Failure) -> UInt32 {
        guard recovers else { throw failure }
        recovered.append(failure)
        return 0xFFFD
    }

    /// Four hex digits at `index`.
    mutating func hexQuad(_ escapeStart: Int) throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail(.unexpectedEnd, "the input ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail(.invalidEscape, "\\u must be followed by four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Validates one multi-byte UTF-8 sequence at `index` and steps over it.
    mutating func utf8Sequence() throws(Failure) {
        guard let length = UTF8Validation.sequenceLength(in: bytes, at: index) else {
            throw fail(.invalidUTF8, "malformed UTF-8 (a byte that cannot start a character, an overlong form, a surrogate, a value above U+10FFFF or a cut-off sequence)")
        }
        index += length
    }

    func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(Self.hex(UInt32(byte), digits: 2))"
    }

    static func describeRaw(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "(byte 0x\(hex(UInt32(byte), digits: 2)))"
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    static func clip(_ text: String) -> String {
        text.unicodeScalars.count <= 40 ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…"
    }
}
