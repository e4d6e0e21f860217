/// Why bytes are not JSON: the reason and where.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: String
    public let position: FilePosition

    public var description: String { "line \(position.line), column \(position.column): \(reason)" }
}

extension JSONTree {
    /// Parses UTF-8 JSON (RFC 8259; duplicate keys are kept in order, the reader of a format decides).
    /// Throws `JSONSyntaxError`. Pure; O(n) in the input's size.
    public init(parsing bytes: [UInt8]) throws {
        var parser = JSONTreeParser(bytes: bytes)
        parser.skipWhitespace()
        let tree = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("trailing characters after the JSON value") }
        self = tree
    }
}

struct JSONTreeParser {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    /// Index of the first byte of the current line.
    var lineStart = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var position: FilePosition {
        var column = 1
        var cursor = lineStart
        while cursor < index {
            if bytes[cursor] & 0xC0 != 0x80 { column += 1 }
            cursor += 1
        }
        return FilePosition(line: line, column: column)
    }

    func failure(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(reason: reason, position: position) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws -> JSONTree {
        guard depth < 64 else { throw failure("nested deeper than 64 levels") }
        guard index < bytes.count else { throw failure("unexpected end of input") }
        let start = position
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [JSONTree.Member] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return JSONTree(value: .object(members), position: start)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a member name in quotes") }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':' after \"\(key)\"") }
                index += 1
                skipWhitespace()
                members.append(JSONTree.Member(key: key, value: try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw failure("unterminated object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                guard bytes[index] == UInt8(ascii: "}") else { throw failure("expected ',' or '}' in an object") }
                index += 1
                return JSONTree(value: .object(members), position: start)
            }
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSONTree] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return JSONTree(value: .array(elements), position: start)
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw failure("unterminated array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                guard bytes[index] == UInt8(ascii: "]") else { throw failure("expected ',' or ']' in an array") }
                index += 1
                return JSONTree(value: .array(elements), position: start)
            }
        case UInt8(ascii: "\""):
            return JSONTree(value: .string(try string()), position: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONTree(value: .bool(true), position: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONTree(value: .bool(false), position: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONTree(value: .null, position: start)
        default:
            let begin = index
            while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
            guard index > begin else { throw failure("unexpected character") }
            return JSONTree(value: .number(String(decoding: bytes[begin..<index], as: UTF8.self)), position: start)
        }
    }

    private mutating func literal(_ word: String) throws {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw failure("unexpected character")
        }
        index += utf8.count
    }

    private mutating func string() throws -> String {
        index += 1
        var output: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: output, as: UTF8.self) else { throw failure("invalid UTF-8 in a string") }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw failure("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): output.append(0x22)
                case UInt8(ascii: "\\"): output.append(0x5C)
                case UInt8(ascii: "/"): output.append(0x2F)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw failure("unpaired surrogate escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid \\u escape") }
                    output.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw failure("invalid escape")
                }
            case 0x00..<0x20:
                throw failure("control character in a string")
            default:
                output.append(byte)
            }
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw failure("invalid \\u escape")
        }
        index += 4
        return value
    }
}
