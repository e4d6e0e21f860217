import StableJSON
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
    /// Scalar count of `value` (for the position just past the end): counted when asked for if it was not given.
    var scalarCount: Int { knownScalarCount ?? value.unicodeScalarCount }
    private let knownScalarCount: Int?

    /// `scalarCount` nil: counted from `value` only when a position needs it (a catalog built in memory, whose
    /// positions are read for findings only: counting every value up front was 2.1 of the 278 million instructions
    /// of `lookd lint` on one `lint-xliff` bench file, callgrind, 3 Dec 2026).
    init(value: String, quote: SourcePosition, scalarPositions: [SourcePosition]?, scalarCount: Int?) {
        self.value = value
        self.quote = quote
        self.scalarPositions = scalarPositions
        self.knownScalarCount = scalarCount
    }

    /// The position of the value's scalar `index` (code points from the value's start); past the end gives the
    /// closing quote.
    func position(ofScalar index: Int) -> SourcePosition {
        guard let positions = scalarPositions else {
            return SourcePosition(line: quote.line, column: quote.column + 1 + max(0, index <= 0 ? 0 : min(index, scalarCount)))
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

extension JSONStringToken {
    /// The token of a string that StableJSON read as `value`, whose opening quote is at `quote` in `bytes` (the
    /// bytes it was read from). Maps each scalar of `value` back to the file through escapes (`\"` is two
    /// columns, `\u00e9` six, a surrogate pair's two escapes twelve) and raw line breaks; O(length).
    init(_ value: String, quote: JSONPosition, in bytes: UnsafeBufferPointer<UInt8>) {
        let quotePosition = SourcePosition(line: quote.line, column: quote.column)
        var index = quote.offset + 1
        var scalarCount = 0
        // Fast path: no escape, no raw control character (the usual catalog value).
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                self.init(value: value, quote: quotePosition, scalarPositions: nil, scalarCount: scalarCount)
                return
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte & 0xC0 != 0x80 { scalarCount += 1 }
            index += 1
        }
        var positions: [SourcePosition] = []
        positions.reserveCapacity(value.unicodeScalars.count)
        index = quote.offset + 1
        var line = quote.line
        var column = quote.column + 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            positions.append(SourcePosition(line: line, column: column))
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                let length = Self.escapeLength(at: index, in: bytes)
                index += length
                column += length
                continue
            }
            index += byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        self.init(value: value, quote: quotePosition, scalarPositions: positions, scalarCount: positions.count)
    }

    /// Bytes (and columns) of the escape at `index` that stands for one scalar: 12 for a surrogate pair's two
    /// `\u` escapes, 6 for another `\u` escape, 2 for the rest.
    private static func escapeLength(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { return 2 }
        guard let high = hexQuad(at: index + 2, in: bytes), (0xD800..<0xDC00).contains(high), index + 12 <= bytes.count,
              bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
              let low = hexQuad(at: index + 8, in: bytes), (0xDC00..<0xE000).contains(low) else { return 6 }
        return 12
    }

    /// The four hex digits at `start`, nil when they are not.
    static func hexQuad(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard start + 4 <= bytes.count else { return nil }
        return UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + 4]), as: UTF8.self), radix: 16)
    }
}
