import Strings
/// A JSON string as written in a catalog file: its decoded value and where each of its scalars came from, so a
/// problem found in the value (a MessageFormat syntax error, a control character) is reported at its place in
/// the file, through escapes such as `\"`, `\n` or `\u00e9`.
struct JSONStringToken: Sendable {
    let value: String
    /// The opening quote.
    let quote: SourcePosition
    /// One position per scalar of `value`, only when escapes or raw line breaks make `quote` + index wrong.
    let scalarPositions: [SourcePosition]?
    /// Scalar count of `value` (for the position just past the end).
    let scalarCount: Int

    /// The position of the value's scalar `index` (code points from the value's start); past the end gives the
    /// closing quote.
    func position(ofScalar index: Int) -> SourcePosition {
        guard let positions = scalarPositions else {
            return SourcePosition(line: quote.line, column: quote.column + 1 + max(0, min(index, scalarCount)))
        }
        if index >= 0, index < positions.count { return positions[index] }
        if let last = positions.last, index >= positions.count {
            return SourcePosition(line: last.line, column: last.column + 1)
        }
        return SourcePosition(line: quote.line, column: quote.column + 1)
    }

    /// The first scalar of the value (or the closing quote when it is empty).
    var contentStart: SourcePosition { position(ofScalar: 0) }
}

/// A parsed JSON value with positions: just what the catalog reader needs.
enum JSONNode: Sendable {
    case string(JSONStringToken)
    case number(Double, SourcePosition)
    case literal(SourcePosition) // true, false, null
    case array(SourcePosition, [JSONNode])
    case object(SourcePosition, [JSONMember])

    var position: SourcePosition {
        switch self {
        case .string(let token): token.quote
        case .number(_, let position), .literal(let position), .array(let position, _), .object(let position, _): position
        }
    }
}

/// One `"key": value` of an object.
struct JSONMember: Sendable {
    let key: JSONStringToken
    let value: JSONNode
}

/// A fatal JSON syntax error, where it was found.
struct JSONSyntaxError: Error {
    let position: SourcePosition
    let message: String
}

/// A small strict JSON reader over UTF-8 bytes that keeps the line and column of every value and key and keeps
/// duplicate keys (Foundation's decoders silently drop them). Columns count Unicode scalars, 1-based.
/// The bytes must be valid UTF-8 (`UTF8Validation.firstInvalidOffset` first). Non-fatal problems that JSON
/// forbids but that do not stop reading (a raw control character in a string, a lone surrogate escape) are
/// collected in `problems`.
struct JSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0
    private var line = 1
    private var lineStart = 0
    private var cursorOffset = 0
    private var cursorColumn = 1
    private(set) var problems: [(position: SourcePosition, message: String)] = []
    private static let maximumDepth = 256

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { // a byte-order mark
            offset = 3
            lineStart = 3
            cursorOffset = 3
        }
    }

    /// Reads one JSON value that must fill the whole input (whitespace aside).
    mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if offset < bytes.count { throw error("unexpected text after the JSON value") }
        return value
    }

    // MARK: - positions

    /// The position of `byteOffset`, which must be on the current line at or after the last one asked for.
    private mutating func position(at byteOffset: Int) -> SourcePosition {
        if cursorOffset < lineStart || cursorOffset > byteOffset {
            cursorOffset = lineStart
            cursorColumn = 1
        }
        var index = cursorOffset
        var column = cursorColumn
        while index < byteOffset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        cursorOffset = byteOffset
        cursorColumn = column
        return SourcePosition(line: line, column: column)
    }

    private mutating func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(position: position(at: min(offset, bytes.count)), message: message)
    }

    private mutating func newLine(after byteOffset: Int) {
        line += 1
        lineStart = byteOffset + 1
        cursorOffset = lineStart
        cursorColumn = 1
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0D: offset += 1
            case 0x0A:
                newLine(after: offset)
                offset += 1
            default: return
            }
        }
    }

    // MARK: - values

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        skipWhitespace()
        guard offset < bytes.count else { throw error("unexpected end of file: expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true")
        case UInt8(ascii: "f"): return try parseLiteral("false")
        case UInt8(ascii: "n"): return try parseLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character: expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < Self.maximumDepth else { throw error("nested too deeply") }
        let start = position(at: offset)
        offset += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .object(start, members)
        }
        while true {
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                throw error("expected a string key")
            }
            let key = try parseString()
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
            offset += 1
            let value = try parseValue(depth: depth + 1)
            members.append(JSONMember(key: key, value: value))
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of file: expected ',' or '}'") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(start, members)
            }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < Self.maximumDepth else { throw error("nested too deeply") }
        let start = position(at: offset)
        offset += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return .array(start, elements)
        }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of file: expected ',' or ']'") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            if bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .array(start, elements)
            }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func parseLiteral(_ word: StaticString) throws(JSONSyntaxError) -> JSONNode {
        let start = position(at: offset)
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw error("unexpected end of file") }
        for index in 0..<count where bytes[offset + index] != word.utf8Start[index] {
            throw error("unexpected character: expected a value")
        }
        offset += count
        return .literal(start)
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONNode {
        let start = position(at: offset)
        let begin = offset
        func digits(_ scanner: inout JSONScanner) -> Int {
            var count = 0
            while scanner.offset < scanner.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(scanner.bytes[scanner.offset]) {
                scanner.offset += 1
                count += 1
            }
            return count
        }
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        guard digits(&self) > 0 else { throw error("invalid number") }
        if bytes[integerStart] == UInt8(ascii: "0"), offset - integerStart > 1 { throw error("invalid number: leading zero") }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits(&self) > 0 else { throw error("invalid number: digits expected after '.'") }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits(&self) > 0 else { throw error("invalid number: digits expected in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<offset]), as: UTF8.self)
        return .number(Double(text) ?? .nan, start)
    }

    /// Reads a string starting at its opening quote.
    private mutating func parseString() throws(JSONSyntaxError) -> JSONStringToken {
        let quote = position(at: offset)
        offset += 1
        let contentStart = offset
        var scalarCount = 0
        // Fast path: no escape, no raw control character (the usual catalog value).
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<offset]), as: UTF8.self)
                offset += 1
                return JSONStringToken(value: value, quote: quote, scalarPositions: nil, scalarCount: scalarCount)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte & 0xC0 != 0x80 { scalarCount += 1 }
            offset += 1
        }
        guard offset < bytes.count else {
            offset = contentStart - 1
            throw error("unterminated string")
        }
        return try parseStringSlowly(quote: quote, contentStart: contentStart)
    }

    /// Decodes a string with escapes or raw control characters, recording every scalar's position.
    private mutating func parseStringSlowly(quote: SourcePosition, contentStart: Int) throws(JSONSyntaxError) -> JSONStringToken {
        var scalars = String.UnicodeScalarView()
        var positions: [SourcePosition] = []
        var index = contentStart
        var column = quote.column + 1
        var currentLine = quote.line

        func decodeScalar(at index: Int) -> (Unicode.Scalar, Int) {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            var value = UInt32(length == 1 ? lead : length == 2 ? lead & 0x1F : length == 3 ? lead & 0x0F : lead & 0x07)
            for next in 1..<max(length, 1) where index + next < bytes.count {
                value = value << 6 | UInt32(bytes[index + next] & 0x3F)
            }
            return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
        }
        func hexValue(_ start: Int) -> UInt32? {
            guard start + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for position in start..<start + 4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }

        while true {
            guard index < bytes.count else {
                offset = contentStart - 1
                cursorOffset = lineStart
                cursorColumn = 1
                throw JSONSyntaxError(position: quote, message: "unterminated string")
            }
            let byte = bytes[index]
            let here = SourcePosition(line: currentLine, column: column)
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count else {
                    offset = contentStart - 1
                    cursorOffset = lineStart
                    cursorColumn = 1
                    throw JSONSyntaxError(position: quote, message: "unterminated string")
                }
                let escape = bytes[index + 1]
                var scalar: Unicode.Scalar
                var consumed = 2
                switch escape {
                case UInt8(ascii: "\""): scalar = "\""
                case UInt8(ascii: "\\"): scalar = "\\"
                case UInt8(ascii: "/"): scalar = "/"
                case UInt8(ascii: "b"): scalar = "\u{08}"
                case UInt8(ascii: "f"): scalar = "\u{0C}"
                case UInt8(ascii: "n"): scalar = "\n"
                case UInt8(ascii: "r"): scalar = "\r"
                case UInt8(ascii: "t"): scalar = "\t"
                case UInt8(ascii: "u"):
                    guard let high = hexValue(index + 2) else {
                        offset = index
                        cursorOffset = lineStart
                        cursorColumn = 1
                        throw JSONSyntaxError(position: here, message: "invalid \\u escape: four hex digits expected")
                    }
                    consumed = 6
                    if (0xD800..<0xDC00).contains(high), index + 12 <= bytes.count,
                       bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
                       let low = hexValue(index + 8), (0xDC00..<0xE000).contains(low) {
                        scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
                        consumed = 12
                    } else if let value = Unicode.Scalar(high) {
                        scalar = value
                    } else {
                        problems.append((here, "lone surrogate escape \\u\(String(high, radix: 16, uppercase: true))"))
                        scalar = "\u{FFFD}"
                    }
                default:
                    throw JSONSyntaxError(position: here, message: "invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
                scalars.append(scalar)
                positions.append(here)
                index += consumed
                column += consumed
                continue
            }
            if byte < 0x20 {
                let name = "U+" + String(UInt32(byte), radix: 16, uppercase: true).leftPadded(to: 4)
                problems.append((here, "raw control character \(name) inside a string (JSON requires an escape such as \\n, \\t or \\u\(String(UInt32(byte), radix: 16).leftPadded(to: 4)))"))
            }
            let (scalar, length) = decodeScalar(at: index)
            scalars.append(scalar)
            positions.append(here)
            index += length
            if byte == 0x0A {
                currentLine += 1
                column = 1
                line = currentLine
                lineStart = index
            } else {
                column += 1
            }
        }
        offset = index + 1
        cursorOffset = offset
        cursorColumn = column + 1
        let count = positions.count
        return JSONStringToken(value: String(scalars), quote: quote, scalarPositions: positions, scalarCount: count)
    }
}

/// UTF-8 validation that says where the first bad sequence starts.
enum UTF8Validation {
    /// The byte offset of the first invalid sequence (overlong, surrogate, beyond U+10FFFF, truncated, stray
    /// continuation byte), or nil when all of `bytes` is valid UTF-8.
    static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            let second = bytes[index + 1]
            guard second >= lower, second <= upper else { return index }
            for next in 2..<max(length, 2) where bytes[index + next] & 0xC0 != 0x80 {
                return index
            }
            index += length
        }
        return nil
    }

    /// The line and column (scalars) of `byteOffset` in `bytes` whose prefix up to it is valid.
    static func position(of byteOffset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition {
        var line = 1
        var column = 1
        var index = 0
        while index < byteOffset {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourcePosition(line: line, column: column)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
