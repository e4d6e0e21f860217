/// A JSON number that never changes: it keeps the exact literal it was read from (or written as), so reading and
/// writing it again gives the same text, even for integers beyond 2^53 or more digits than a `Double` holds.
///
/// Equality and hashing compare the literal: `1`, `1.0` and `1e0` are three different numbers here (as they are
/// three different byte strings). Thread-safe: a value type.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// The number's text, always valid RFC 8259 number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    public let literal: String
    /// The nearest `Double` to the literal (round-to-nearest, as `strtod`). ±infinity when the literal is beyond
    /// `Double`'s range (`1e400`); integers beyond 2^53 may differ from the literal, which is why it is kept.
    public let double: Double

    /// The literal if it is valid RFC 8259 number grammar, else nil (no `+`, no leading zeros, no `.5`, no `NaN`).
    public init?(literal: String) {
        var text = literal
        let valid = text.withUTF8 { JSONNumberGrammar.length(of: $0, from: 0) == $0.count && !$0.isEmpty }
        guard valid else { return nil }
        self.init(validLiteral: literal)
    }

    /// An integer, written in decimal.
    public init(_ value: Int) {
        literal = String(value)
        double = Double(value)
    }

    /// A finite double, written as the shortest text that reads back to the same `Double` (Swift's
    /// `description`, without a trailing `.0`: `1.0` → `1`, `4.5` → `4.5`, `0.00001` → `1e-05`).
    /// Returns nil for NaN and ±infinity, which JSON cannot express.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        literal = text
        double = value
    }

    public init(integerLiteral value: Int) { self.init(value) }

    /// A float literal in source code; it must be finite.
    public init(floatLiteral value: Double) {
        guard let number = JSONNumber(value) else { preconditionFailure("a JSON number must be finite") }
        self = number
    }

    /// For the reader: `literal` is known to match the grammar.
    init(validLiteral literal: String) {
        self.literal = literal
        double = Double(literal) ?? .nan
    }

    /// The exact integer the literal names, when it names one that fits in `Int`: `42`, `-7`, `1e3`, `2.50e1`;
    /// nil for `1.5`, `1e400` or integers beyond `Int`'s range.
    public var int: Int? {
        if let exact = Int(literal) { return exact }
        guard double.isFinite, double == double.rounded(), abs(double) < 9_007_199_254_740_992 else { return nil }
        return Int(double)
    }

    public var description: String { literal }
}

/// RFC 8259's number grammar over bytes.
enum JSONNumberGrammar {
    /// How many bytes from `start` form a number, or -1 when the bytes there do not start a valid number
    /// (a leading zero followed by a digit, a `.` or `e` without digits, a lone `-`).
    static func length(of bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        let end = bytes.count
        func isDigit(_ at: Int) -> Bool { at < end && bytes[at] &- 0x30 < 10 }
        if index < end, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return -1 }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return -1 }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return -1 }
            while isDigit(index) { index += 1 }
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { return -1 }
            while isDigit(index) { index += 1 }
        }
        return index - start
    }
}
