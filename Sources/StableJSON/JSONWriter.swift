/// The one JSON writer: RFC 8259 text straight into a `[UInt8]` buffer, with stable bytes.
///
/// - Compact by default (no white space); `pretty: true` puts each member and element on its own line,
///   indented by two spaces, with `": "` after keys.
/// - ``write(_:)`` of a ``JSONValue`` sorts object keys by their UTF-8 bytes, so equal values give equal bytes.
/// - Strings are escaped as RFC 8259 requires and no more: `"` and `\`, `\b \f \n \r \t`, other control
///   characters as `\u00xx` (lowercase hex); `/` and non-ASCII are written as they are (UTF-8).
/// - Numbers are written from their literal (``JSONNumber/literal``), so they never change.
///
/// Two ways to use it:
/// ```swift
/// // A tree:
/// let bytes = JSONWriter.bytes(.object(["b": .number(1), "a": .string("x")]))   // {"a":"x","b":1}
///
/// // Streaming, for responses built without a tree (keys are written in the order given: give them sorted
/// // by UTF-8 bytes when the output must be stable):
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("count"); writer.number(2)
/// writer.key("items"); writer.beginArray(); writer.string("a"); writer.string("b"); writer.endArray()
/// writer.endObject()
/// writer.bytes   // {"count":2,"items":["a","b"]}
/// ```
/// The streaming calls must form one JSON value (a `key` only directly inside an object, a value after each
/// key, every `begin` closed by its `end`); the writer does not check this, and a wrong sequence writes invalid
/// JSON. Not thread-safe while writing (a value type: each thread uses its own).
public struct JSONWriter: Sendable {
    /// What has been written so far.
    public private(set) var bytes: [UInt8]
    /// Whether the output is indented.
    public let pretty: Bool
    private var depth = 0
    private var first = true
    private var afterKey = false

    /// - Parameters:
    ///   - pretty: indent with two spaces and a line per member and element.
    ///   - capacity: bytes to reserve up front.
    public init(pretty: Bool = false, capacity: Int = 1_024) {
        self.pretty = pretty
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// `value` as JSON bytes, keys sorted by UTF-8 bytes.
    public static func bytes(_ value: JSONValue, pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.write(value)
        return writer.bytes
    }

    /// `value` as a JSON string, keys sorted by UTF-8 bytes.
    public static func string(_ value: JSONValue, pretty: Bool = false) -> String {
        String(decoding: bytes(value, pretty: pretty), as: UTF8.self)
    }

    /// Writes a whole value (as the next element, or as the value after ``key(_:)``), objects with sorted keys.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { write(element) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                key(name)
                write(member)
            }
            endObject()
        }
    }

    // MARK: - Streaming

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        open()
    }

    public mutating func endObject() { close(UInt8(ascii: "}")) }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        open()
    }

    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// An object member's key; the next call writes its value.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    public mutating func string(_ text: String) {
        separate()
        appendString(text)
    }

    public mutating func number(_ number: JSONNumber) {
        separate()
        bytes.append(contentsOf: number.literal.utf8)
    }

    /// An integer in decimal.
    public mutating func number(_ value: Int) {
        separate()
        if value >= 0, value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    /// A finite double as ``JSONNumber/init(_:)-(Double)`` writes it; NaN and ±infinity are written as `null`.
    public mutating func number(_ value: Double) {
        guard let number = JSONNumber(value) else { return null() }
        self.number(number)
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// `key(name)` then `string(text)`.
    public mutating func member(_ name: String, _ text: String) {
        key(name)
        string(text)
    }

    // MARK: - Layout

    /// Before a value or key: nothing after a key; else a comma unless first, and a new line when pretty.
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        if pretty { newline() }
    }

    private mutating func open() {
        depth += 1
        first = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if pretty, !first { newline() }
        first = false
        bytes.append(bracket)
    }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<depth { bytes.append(0x20); bytes.append(0x20) }
    }

    // MARK: - Strings

    private mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let digits: StaticString = "0123456789abcdef"
                    bytes.append(contentsOf: "u00".utf8)
                    bytes.append(digits.utf8Start[Int(byte >> 4)])
                    bytes.append(digits.utf8Start[Int(byte & 15)])
                }
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
