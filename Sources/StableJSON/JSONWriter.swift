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
    /// How many bytes are written so far (`bytes.count`, without copying them).
    public var count: Int { buffer.state.pointee.count }
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
        case .object(let object):
            beginObject()
            // The members are in the keys' string order, which is their UTF-8 order when every key is ASCII.
            if object.members.allSatisfy({ $0.key.utf8.allSatisfy { $0 < 0x80 } }) {
                for index in object.members.indices {
                    key(object.members[index].key)
                    write(object.members[index].value)
                }
            } else {
                for member in object.members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                    key(member.key)
                    write(member.value)
                }
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
    //
    // Every call checks `pretty` first. The compact layout (what the daemon sends) keeps one flag, `comma`, and
    // each call reserves its bytes once and stores them through a pointer, inlined into the caller. The
    // indented layouts keep the line and depth state and go through ``separate()``, out of line.

    @inlinable @inline(__always)
    public mutating func beginObject() { open(UInt8(ascii: "{")) }

    @inlinable @inline(__always)
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    @inlinable @inline(__always)
    public mutating func beginArray() { open(UInt8(ascii: "[")) }

    @inlinable @inline(__always)
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// An object member's key; the next call writes its value.
    @inlinable @inline(__always)
    public mutating func key(_ name: String) {
        guard pretty else { return appendString(name, key: true) }
        indentedKey(name)
    }

    /// An object member's key known when the program is compiled: ASCII that needs no escaping (no control
    /// character, `"` or `\`; checked in debug builds). One copy, no scan: the fast path for fixed keys.
    @inlinable @inline(__always)
    public mutating func key(static name: StaticString) {
        assert(Self.needsNoEscape(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)), "a static key must need no escaping")
        guard pretty else {
            let count = name.utf8CodeUnitCount
            return compact(reserving: count + 3, endsValue: false) { out in
                out[0] = UInt8(ascii: "\"")
                (out + 1).initialize(from: name.utf8Start, count: count)
                out[count + 1] = UInt8(ascii: "\"")
                out[count + 2] = UInt8(ascii: ":")
                return count + 3
            }
        }
        indentedKey(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    /// `key(static: name)` then `string(text)`.
    @inlinable @inline(__always)
    public mutating func member(static name: StaticString, _ text: String) {
        key(static: name)
        string(text)
    }

    /// `key(static: name)` then `string(unescapedCount: count, body)`, in the compact layout in one reservation:
    /// `body` must initialize exactly `count` bytes (≥ 0) at the pointer it is given, valid UTF-8 that needs no
    /// escaping (no byte below 0x20, no `"` or `\`; debug builds check). For fixed-width values such as
    /// `#RRGGBB` colours.
    @inlinable @inline(__always)
    public mutating func member(static name: StaticString, unescapedCount count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        assert(Self.needsNoEscape(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)), "a static key must need no escaping")
        precondition(count >= 0, "count must not be negative")
        guard pretty else {
            let nameCount = name.utf8CodeUnitCount
            return compact(reserving: nameCount + count + 5, endsValue: true) { out in
                out[0] = UInt8(ascii: "\"")
                (out + 1).initialize(from: name.utf8Start, count: nameCount)
                out[nameCount + 1] = UInt8(ascii: "\"")
                out[nameCount + 2] = UInt8(ascii: ":")
                out[nameCount + 3] = UInt8(ascii: "\"")
                body(out + nameCount + 4)
                assert(Self.needsNoEscape(UnsafeBufferPointer(start: out + nameCount + 4, count: count)), "the bytes written must need no escaping")
                out[nameCount + count + 4] = UInt8(ascii: "\"")
                return nameCount + count + 5
            }
        }
        key(static: name)
        string(unescapedCount: count, body)
    }

    /// `key(static: name)` then `string(static: text)`.
    @inlinable @inline(__always)
    public mutating func member(static name: StaticString, static text: StaticString) {
        key(static: name)
        string(static: text)
    }

    @inlinable @inline(__always)
    public mutating func string(_ text: String) {
        if pretty { separate() }
        appendString(text, key: false)
    }

    /// A string value known when the program is compiled that needs no escaping (no control character, `"` or
    /// `\`; checked in debug builds): one copy, no scan.
    @inlinable @inline(__always)
    public mutating func string(static text: StaticString) {
        assert(Self.needsNoEscape(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)), "a static string must need no escaping")
        let count = text.utf8CodeUnitCount
        string(unescapedCount: count) { $0.initialize(from: text.utf8Start, count: count) }
    }

    /// A string value of exactly `count` UTF-8 bytes that `body` writes straight into the output, in place,
    /// without a `String` or an escape scan: `body` must initialize all `count` bytes at the pointer it is given,
    /// and they must be valid UTF-8 that needs no escaping (no byte below 0x20, no `"` or `\`). A wrong byte
    /// writes invalid JSON; debug builds check. `count` must be ≥ 0. For text made of digits and letters, such
    /// as `#RRGGBB` colours.
    @inlinable @inline(__always)
    public mutating func string(unescapedCount count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        precondition(count >= 0, "count must not be negative")
        if pretty { separate() }
        compact(reserving: count + 2, endsValue: true) { out in
            out[0] = UInt8(ascii: "\"")
            body(out + 1)
            assert(Self.needsNoEscape(UnsafeBufferPointer(start: out + 1, count: count)), "the bytes written must need no escaping")
            out[count + 1] = UInt8(ascii: "\"")
            return count + 2
        }
    }

    public mutating func number(_ number: JSONNumber) {
        separate()
        appendUTF8(of: number.literal)
        valueWritten()
    }

    /// An integer in decimal.
    @inlinable
    public mutating func number(_ value: Int) {
        if pretty { separate() }
        compact(reserving: 21, endsValue: true) { out in
            if value < 0 { out[0] = UInt8(ascii: "-") }
            let sign = value < 0 ? 1 : 0
            return sign + Self.writeDigits(of: value.magnitude, to: out + sign)
        }
    }

    /// The decimal `units / 10^places`, with no trailing zeros after the point and no point when none remain:
    /// `number(4501, places: 3)` writes `4.501`, `number(4500, places: 3)` `4.5`, `number(-20, places: 1)` `-2`.
    /// For `places` in 0...18 this is the same text as ``number(_:)-(Double)`` writes for the `Double` nearest to
    /// that decimal, when its magnitude is at least 0.0001 (smaller ones there use exponent notation); it is
    /// faster, and exact. `places` must be in 0...18.
    public mutating func number(_ units: Int, places: Int) {
        precondition((0...18).contains(places), "places must be in 0...18")
        if pretty { separate() }
        // A sign, at most 20 digits (19 with a point) and a point.
        compact(reserving: 22, endsValue: true) { out in
            var magnitude = units.magnitude
            // The fraction loses its trailing zeros; the digits left are counted by comparison (no division).
            var fractionDigits = places
            while fractionDigits > 0, magnitude % 10 == 0 {
                magnitude /= 10
                fractionDigits -= 1
            }
            var digits = 1
            var power: UInt = 10
            while digits < 20, magnitude >= power {
                digits += 1
                power = digits < 20 ? power &* 10 : .max
            }
            // The integer part has at least one digit.
            let integerDigits = max(digits - fractionDigits, 1)
            let sign = units < 0 ? 1 : 0
            out[0] = UInt8(ascii: "-")
            // Right to left: the fraction's digits, the point, the integer part's digits (leading zeros as needed).
            let end = sign + integerDigits + (fractionDigits > 0 ? fractionDigits + 1 : 0)
            var index = end
            for _ in 0..<fractionDigits {
                index -= 1
                out[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            if fractionDigits > 0 {
                index -= 1
                out[index] = UInt8(ascii: ".")
            }
            while index > sign {
                index -= 1
                out[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            return end
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
        valueWritten()
    }

    @inlinable
    public mutating func null() {
        separate()
        appendStatic("null")
        valueWritten()
    }

    /// Writes `bytes` unchanged as the next value: one complete JSON value that this writer produced earlier
    /// (stored canonical JSON, an encoded look), embedded without reading it again. The caller guarantees the
    /// bytes are exactly one valid value in this writer's layout; nothing is checked.
    public mutating func raw<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        separate()
        if bytes.withContiguousStorageIfAvailable({ buffer.append($0) }) == nil {
            Array(bytes).withUnsafeBufferPointer { buffer.append($0) }
        }
        valueWritten()
    }

    /// `key(name)` then `string(text)`.
    @inlinable
    public mutating func member(_ name: String, _ text: String) {
        key(name)
        string(text)
    }

    // MARK: - Layout

    /// Compact: the comma before the next item when one is due, then what `body` writes (at most `count` bytes;
    /// it returns how many), in one reservation. `endsValue`: what was written completes a value, so the next
    /// item needs a comma. In an indented layout nothing is prefixed (``separate()`` has run).
    @inlinable @inline(__always)
    mutating func compact(reserving count: Int, endsValue: Bool, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let state = self.state
        let comma = !pretty && state.pointee.comma
        state.pointee.comma = endsValue
        buffer.write(reserving: count + 1) { out in
            out[0] = UInt8(ascii: ",")
            let at = comma ? 1 : 0
            return at + body(out + at)
        }
    }

    /// Before a value or key. Compact: a comma when one is due (``compact(reserving:endsValue:_:)`` does
    /// this inline). Indented: nothing after a key; else a comma unless first, and a new line or a space.
    @usableFromInline
    mutating func separate() {
        guard pretty else {
            if state.pointee.comma { buffer.append(UInt8(ascii: ",")) }
            return
        }
        if state.pointee.afterKey {
            state.pointee.afterKey = false
            return
        }
        guard state.pointee.depth > 0 else { return }
        let first = state.pointee.first
        if !first { buffer.append(UInt8(ascii: ",")) }
        state.pointee.first = false
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

    /// After a value written through ``separate()``: in the compact layout, the next item needs a comma.
    @inlinable
    mutating func valueWritten() {
        state.pointee.comma = true
    }

    /// A key in an indented layout: separated, quoted and escaped, then the colon with the layout's spaces.
    @usableFromInline
    mutating func indentedKey(_ utf8: UnsafeBufferPointer<UInt8>) {
        separate()
        appendEscaped(utf8, key: false)
        if layout.spaceBeforeColon { buffer.append(0x20) }
        buffer.append(UInt8(ascii: ":"))
        buffer.append(0x20)
        state.pointee.afterKey = true
    }

    @usableFromInline
    mutating func indentedKey(_ name: String) {
        var name = name
        name.withUTF8 { indentedKey($0) }
    }

    @inlinable @inline(__always)
    mutating func open(_ bracket: UInt8) {
        guard pretty else {
            return compact(reserving: 1, endsValue: false) { out in
                out[0] = bracket
                return 1
            }
        }
        indentedOpen(bracket)
    }

    @usableFromInline
    mutating func indentedOpen(_ bracket: UInt8) {
        separate()
        buffer.append(bracket)
        state.pointee.depth += 1
        state.pointee.first = true
    }

    @inlinable @inline(__always)
    mutating func close(_ bracket: UInt8) {
        guard pretty else {
            state.pointee.comma = true
            return buffer.append(bracket)
        }
        indentedClose(bracket)
    }

    @usableFromInline
    mutating func indentedClose(_ bracket: UInt8) {
        let onLines = state.pointee.depth <= layout.lineDepth
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

    /// Writes `value` in decimal at `out` (room for 20 bytes); returns how many bytes.
    @inlinable
    static func writeDigits(of value: UInt, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        var value = value
        var index = count
        repeat {
            index -= 1
            out[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        } while index > 0
        return count
    }

    // MARK: - Strings

    /// `text` quoted and escaped, as a key (compact: with its colon) or a value; compact: with the comma before
    /// it when one is due.
    @inlinable @inline(__always)
    mutating func appendString(_ text: String, key: Bool) {
        // Native and small strings are contiguous UTF-8: no copy of the string, no retain.
        if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, key: key) }) == nil {
            var text = text
            text.withUTF8 { appendEscaped($0, key: key) }
        }
    }

    /// Whether no byte of `utf8` needs escaping.
    @inlinable
    static func needsNoEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        !utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    /// Copies `utf8` to `out` up to its first byte that must be escaped (a control character, `"` or `\`) and
    /// returns that byte's offset, or `utf8.count` when there is none. `out` must have room for `utf8.count` bytes.
    @inlinable
    static func copyUpToEscape(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        let count = utf8.count
        var index = 0
        while index < count {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            out[index] = byte
            index += 1
        }
        return index
    }

    /// `utf8` quoted and escaped; compact: with the comma before it when one is due, and after a key its colon.
    /// Most strings need no escape: one pass that scans and copies, into space reserved once.
    @inlinable @inline(__always)
    mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, key: Bool) {
        let count = utf8.count
        let colon = key && !pretty
        var copied = 0
        compact(reserving: count + 3, endsValue: !key) { out in
            out[0] = UInt8(ascii: "\"")
            copied = Self.copyUpToEscape(utf8, to: out + 1)
            guard copied == count else { return copied + 1 }
            out[count + 1] = UInt8(ascii: "\"")
            out[count + 2] = UInt8(ascii: ":")
            return count + (colon ? 3 : 2)
        }
        if copied < count { appendEscapedRest(utf8, from: copied, colon: colon) }
    }

    /// The bytes of `utf8` from `start` (a byte that must be escaped) on, escaped, the closing quote, and the
    /// colon when `colon`.
    @usableFromInline
    mutating func appendEscapedRest(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int, colon: Bool) {
        var runStart = start
        var index = start
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
        if colon { buffer.append(UInt8(ascii: ":")) }
    }
}
