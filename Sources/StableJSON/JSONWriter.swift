/// The one JSON writer: RFC 8259 text straight into a `[UInt8]` buffer, with stable bytes.
///
/// - Compact by default (no white space); `pretty: true` puts each member and element on its own line,
///   indented by two spaces, with `": "` after keys; other ``JSONLayout``s give Xcode's and lookd's catalog
///   layouts.
/// - ``write(_:)`` of a ``JSONValue`` sorts object keys by their UTF-8 bytes, so equal values give equal bytes.
/// - Strings are escaped as RFC 8259 requires and no more: `"` and `\`, `\b \f \n \r \t`, other control
///   characters as `\u00xx` (lowercase hex); `/` and non-ASCII are written as they are (UTF-8).
/// - Numbers are written from their literal (``JSONNumber/literal``), so they never change.
/// - ``write(_:)-(JSONDocument)`` and the streaming calls keep the order they are given (for files whose
///   member order is their author's, such as catalogs).
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
/// JSON. Not thread-safe while writing: each thread uses its own writer. A copy of a writer writes to the same
/// output (pass it `inout` rather than copying it).
public struct JSONWriter {
    /// A copy of what has been written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: buffer.state.pointee.start, count: buffer.state.pointee.count)) }
    /// Whether the output is indented.
    public let pretty: Bool
    /// The white space written.
    public let layout: JSONLayout
    // The output and the layout state live behind one pointer: writes inline into callers in other modules as a
    // capacity check and a store, with no copy-on-write or exclusivity check (a look is ~300 writes).
    @usableFromInline let buffer: OutputBuffer

    /// - Parameters:
    ///   - pretty: indent with two spaces and a line per member and element.
    ///   - capacity: bytes to reserve up front.
    public init(pretty: Bool = false, capacity: Int = 1_024) {
        self.init(layout: pretty ? .pretty : .compact, capacity: capacity)
    }

    /// - Parameters:
    ///   - layout: the white space to write.
    ///   - capacity: bytes to reserve up front.
    public init(layout: JSONLayout, capacity: Int = 1_024) {
        self.layout = layout
        pretty = layout.indented
        buffer = OutputBuffer(capacity: capacity)
    }

    @inlinable var state: UnsafeMutablePointer<OutputBuffer.State> { buffer.state }

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

    /// Writes a document (as the next element, or as the value after ``key(_:)``) with its members in the
    /// order they have, duplicates included; positions are not written.
    public mutating func write(_ document: JSONDocument) {
        switch document.value {
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
            for member in members {
                key(member.key)
                write(member.value)
            }
            endObject()
        }
    }

    /// `document` as JSON bytes in `layout`, members in their order, and a final line feed when `lineFeed`.
    public static func bytes(_ document: JSONDocument, layout: JSONLayout, lineFeed: Bool = false) -> [UInt8] {
        var writer = JSONWriter(layout: layout)
        writer.write(document)
        if lineFeed { writer.lineFeed() }
        return writer.bytes
    }

    /// Ends the output with a line feed (files end with one); call it once, after the top-level value.
    public mutating func lineFeed() { buffer.append(UInt8(ascii: "\n")) }

    /// In an indented layout, an empty line before the next member or element (a group break a person reads);
    /// nothing in one-line containers and in the compact layout.
    public mutating func blankLine() {
        guard pretty, state.pointee.depth <= layout.lineDepth else { return }
        state.pointee.blankLine = true
    }

    // MARK: - Streaming

    @inlinable
    public mutating func beginObject() {
        separate()
        buffer.append(UInt8(ascii: "{"))
        open()
    }

    @inlinable
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    @inlinable
    public mutating func beginArray() {
        separate()
        buffer.append(UInt8(ascii: "["))
        open()
    }

    @inlinable
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// An object member's key; the next call writes its value.
    @inlinable
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        separateKey()
    }

    /// An object member's key known when the program is compiled: ASCII that needs no escaping (no control
    /// character, `"` or `\`; checked in debug builds). One copy, no scan: the fast path for fixed keys.
    @inlinable
    public mutating func key(static name: StaticString) {
        assert(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount).allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }, "a static key must need no escaping")
        separate()
        buffer.append(UInt8(ascii: "\""))
        appendStatic(name)
        buffer.append(UInt8(ascii: "\""))
        separateKey()
    }

    /// `key(static: name)` then `string(text)`.
    @inlinable
    public mutating func member(static name: StaticString, _ text: String) {
        key(static: name)
        string(text)
    }

    @inlinable
    public mutating func string(_ text: String) {
        separate()
        appendString(text)
    }

    public mutating func number(_ number: JSONNumber) {
        separate()
        appendUTF8(of: number.literal)
    }

    /// An integer in decimal.
    @inlinable
    public mutating func number(_ value: Int) {
        separate()
        if value >= 0, value < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(value))
        } else {
            appendUTF8(of: String(value))
        }
    }

    /// The decimal `units / 10^places`, with no trailing zeros after the point and no point when none remain:
    /// `number(4501, places: 3)` writes `4.501`, `number(4500, places: 3)` `4.5`, `number(-20, places: 1)` `-2`.
    /// For `places` in 0...18 this is the same text as ``number(_:)-(Double)`` writes for the `Double` nearest to
    /// that decimal, when its magnitude is at least 0.0001 (smaller ones there use exponent notation); it is
    /// faster, and exact. `places` must be in 0...18.
    public mutating func number(_ units: Int, places: Int) {
        precondition((0...18).contains(places), "places must be in 0...18")
        separate()
        if units < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = units.magnitude
        var scale: UInt = 1
        for _ in 0..<places { scale *= 10 }
        appendDigits(of: magnitude / scale)
        magnitude %= scale
        guard magnitude > 0 else { return }
        buffer.append(UInt8(ascii: "."))
        var digits = places
        while magnitude % 10 == 0 {
            magnitude /= 10
            digits -= 1
        }
        var divisor: UInt = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }

    /// A finite double as ``JSONNumber/init(_:)-(Double)`` writes it; NaN and ±infinity are written as `null`.
    public mutating func number(_ value: Double) {
        guard let number = JSONNumber(value) else { return null() }
        self.number(number)
    }

    @inlinable
    public mutating func bool(_ value: Bool) {
        separate()
        appendStatic(value ? "true" : "false")
    }

    @inlinable
    public mutating func null() {
        separate()
        appendStatic("null")
    }

    /// Writes `bytes` unchanged as the next value: one complete JSON value that this writer produced earlier
    /// (stored canonical JSON, an encoded look), embedded without reading it again. The caller guarantees the
    /// bytes are exactly one valid value in this writer's layout; nothing is checked.
    public mutating func raw<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        separate()
        if bytes.withContiguousStorageIfAvailable({ buffer.append($0) }) == nil {
            Array(bytes).withUnsafeBufferPointer { buffer.append($0) }
        }
    }

    /// `key(name)` then `string(text)`.
    @inlinable
    public mutating func member(_ name: String, _ text: String) {
        key(name)
        string(text)
    }

    // MARK: - Layout

    /// Before a value or key: nothing after a key; else a comma unless first, and a new line when pretty.
    @inlinable
    mutating func separate() {
        if state.pointee.afterKey {
            state.pointee.afterKey = false
            return
        }
        guard state.pointee.depth > 0 else { return }
        let first = state.pointee.first
        if !first { buffer.append(UInt8(ascii: ",")) }
        state.pointee.first = false
        guard pretty else { return }
        if state.pointee.depth <= layout.lineDepth {
            if state.pointee.blankLine {
                state.pointee.blankLine = false
                buffer.append(UInt8(ascii: "\n"))
            }
            newline()
        } else if !first {
            buffer.append(0x20)
        }
    }

    /// After a key: the colon, with the layout's spaces.
    @inlinable
    mutating func separateKey() {
        if pretty {
            if layout.spaceBeforeColon { buffer.append(0x20) }
            buffer.append(UInt8(ascii: ":"))
            buffer.append(0x20)
        } else {
            buffer.append(UInt8(ascii: ":"))
        }
        state.pointee.afterKey = true
    }

    @inlinable
    mutating func open() {
        state.pointee.depth += 1
        state.pointee.first = true
    }

    @inlinable
    mutating func close(_ bracket: UInt8) {
        let onLines = pretty && state.pointee.depth <= layout.lineDepth
        state.pointee.depth -= 1
        state.pointee.blankLine = false
        if onLines {
            if !state.pointee.first {
                newline()
            } else if layout.blankLineInEmpty {
                buffer.append(UInt8(ascii: "\n"))
                newline()
            }
        }
        state.pointee.first = false
        buffer.append(bracket)
    }

    @usableFromInline
    mutating func newline() {
        buffer.append(UInt8(ascii: "\n"))
        for _ in 0..<state.pointee.depth { buffer.append(0x20); buffer.append(0x20) }
    }

    // MARK: - Bytes

    @inlinable
    mutating func appendStatic(_ text: StaticString) {
        buffer.append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inlinable
    mutating func appendUTF8(of text: String) {
        var text = text
        text.withUTF8 { buffer.append($0) }
    }

    @usableFromInline
    mutating func appendDigits(of value: UInt) {
        if value < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var divisor: UInt = 10
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    // MARK: - Strings

    @inlinable
    mutating func appendString(_ text: String) {
        var text = text
        text.withUTF8 { appendEscaped($0) }
    }

    /// The offset of the first byte of `utf8` that must be escaped (a control character, `"` or `\`), or
    /// `utf8.count`: eight bytes per step (SWAR), then byte by byte.
    @inlinable
    static func firstByteToEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= utf8.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A byte below 0x20, or equal to 0x22 or 0x5C, sets its high bit in `flags` (bytes ≥ 0x80 never do).
            let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
            let flags = (((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs
            if flags != 0 { break }
            index += 8
        }
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }

    /// `utf8` quoted and escaped. Most strings need no escape: one scan, then one copy.
    @inlinable
    mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        buffer.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = Self.firstByteToEscape(utf8)
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            index += 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index - 1 { buffer.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index - 1])) }
            runStart = index
            buffer.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
            case 0x08: buffer.append(UInt8(ascii: "b"))
            case 0x0C: buffer.append(UInt8(ascii: "f"))
            case 0x0A: buffer.append(UInt8(ascii: "n"))
            case 0x0D: buffer.append(UInt8(ascii: "r"))
            case 0x09: buffer.append(UInt8(ascii: "t"))
            default:
                let digits: StaticString = "0123456789abcdef"
                appendStatic("u00")
                buffer.append(digits.utf8Start[Int(byte >> 4)])
                buffer.append(digits.utf8Start[Int(byte & 15)])
            }
        }
        if runStart < count { buffer.append(UnsafeBufferPointer(rebasing: utf8[runStart..<count])) }
        buffer.append(UInt8(ascii: "\""))
    }
}
