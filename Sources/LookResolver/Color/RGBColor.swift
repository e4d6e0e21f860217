/// An opaque sRGB colour with 8 bits per channel: what a `#RRGGBB` string names.
public struct RGBColor: Hashable, Sendable, Comparable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let white = RGBColor(red: 255, green: 255, blue: 255)
    public static let black = RGBColor(red: 0, green: 0, blue: 0)

    /// Parses `#RRGGBB`, `#RGB`, or `#RRGGBBAA` whose alpha is `FF` (opaque); hex digits in either case.
    /// Returns nil for anything else: no `#`, other lengths, non-hex digits, surrounding spaces, or a
    /// translucent alpha (a chat colour must be opaque for its contrast to mean anything).
    @inline(__always)
    public init?(hex text: borrowing String) {
        // Native and small strings are contiguous UTF-8: one pass over the bytes, no iterator, no copy.
        let parsed = text.utf8.withContiguousStorageIfAvailable(Self.hexDigits) ?? {
            var contiguous = copy text
            return contiguous.withUTF8(Self.hexDigits)
        }()
        guard let (value, count) = parsed else { return nil }
        func byte(_ shift: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        switch count {
        case 3:
            self.init(red: UInt8(value >> 8 & 15) * 17, green: UInt8(value >> 4 & 15) * 17, blue: UInt8(value & 15) * 17)
        case 6:
            self.init(red: byte(16), green: byte(8), blue: byte(0))
        case 8:
            guard value & 0xFF == 0xFF else { return nil }
            self.init(red: byte(24), green: byte(16), blue: byte(8))
        default:
            return nil
        }
    }

    /// `#RRGGBB` with uppercase hex digits.
    public var hex: String {
        // Seven ASCII bytes: a small string, built in place without an allocation.
        String(unsafeUninitializedCapacity: 7) { buffer in
            writeHex(to: buffer.baseAddress!)
            return 7
        }
    }

    /// Writes ``hex``'s seven ASCII bytes at `out`, which must have room for them: two overlapping 4-byte stores,
    /// the digits computed for all six nibbles at once (no table, no branch).
    @inline(__always)
    func writeHex(to out: UnsafeMutablePointer<UInt8>) {
        // Byte i of `nibbles` holds the i-th hex digit's value (most significant first); each becomes its ASCII
        // digit: '0' + n, and 7 more for n ≥ 10 ('A'…'F'), found by adding 0x76 (a byte reaches 0x80 exactly when
        // n ≥ 10, never carrying into the next).
        let value = UInt64(packed)
        var nibbles: UInt64 = 0
        for index in 0..<6 { nibbles |= (value >> UInt64(20 - 4 * index) & 0xF) << UInt64(8 * index) }
        let letters = (nibbles &+ 0x7676_7676_7676) >> 7 & 0x0101_0101_0101
        let text = (nibbles &+ 0x3030_3030_3030 &+ letters &* 7) << 8 | UInt64(UInt8(ascii: "#"))
        let raw = UnsafeMutableRawPointer(out)
        raw.storeBytes(of: UInt32(truncatingIfNeeded: text).littleEndian, as: UInt32.self)
        raw.storeBytes(of: UInt32(truncatingIfNeeded: text >> 24).littleEndian, toByteOffset: 3, as: UInt32.self)
    }

    /// The three channels as one 24-bit number, `0xRRGGBB`.
    public var packed: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

    /// One combine of the packed channels (the palette memo hashes an accent on every resolve).
    public func hash(into hasher: inout Hasher) { hasher.combine(packed) }

    public static func < (lhs: RGBColor, rhs: RGBColor) -> Bool {
        (lhs.red, lhs.green, lhs.blue) < (rhs.red, rhs.green, rhs.blue)
    }

    /// `#` and 1 to 8 hex digits: their value and how many digits; nil for anything else.
    @inline(__always)
    private static func hexDigits(_ utf8: UnsafeBufferPointer<UInt8>) -> (value: UInt32, count: Int)? {
        let count = utf8.count
        guard count >= 2, count <= 9, utf8[0] == UInt8(ascii: "#") else { return nil }
        if count == 7, let base = utf8.baseAddress {
            // `#RRGGBB`, the common case: the six digits as the low six bytes of one word.
            let raw = UnsafeRawPointer(base + 1)
            let word = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
                | UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt16.self))) << 32
            guard let value = sixHexDigits(word) else { return nil }
            return (value, 6)
        }
        var value: UInt32 = 0
        var index = 1
        while index < count {
            guard let nibble = hexValue(utf8[index]) else { return nil }
            value = value << 4 | UInt32(nibble)
            index += 1
        }
        return (value, count - 1)
    }

    /// The value of six hex digits held in the low six bytes of `word` (the first digit in the lowest byte), or
    /// nil unless all six are `0-9`, `a-f` or `A-F`. All lanes at once: for a byte `x` below 0x80,
    /// `x + (0x80 - low)` sets the byte's high bit exactly when `x ≥ low`, and `x + (0x7F - high)` leaves it clear
    /// exactly when `x ≤ high`, with no carry into the next byte.
    @inline(__always)
    static func sixHexDigits(_ word: UInt64) -> UInt32? {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        // The two unused top bytes read as '0'.
        let lanes = word | 0x3030 << 48
        guard lanes & highs == 0 else { return nil }
        func atLeast(_ x: UInt64, _ low: UInt64) -> UInt64 { (x &+ ones &* (0x80 - low)) & highs }
        func atMost(_ x: UInt64, _ high: UInt64) -> UInt64 { ~(x &+ ones &* (0x7F - high)) & highs }
        let digit = atLeast(lanes, 0x30) & atMost(lanes, 0x39)
        let lower = lanes | ones &* 0x20
        let letter = atLeast(lower, 0x61) & atMost(lower, 0x66)
        guard digit | letter == highs else { return nil }
        // A digit's value is its low nibble; a letter's ('a' or 'A' is 1 there) is its low nibble + 9.
        let nibbles = (lanes & (ones &* 0x0F)) &+ (letter >> 7) &* 9
        var value: UInt32 = 0
        for index in 0..<6 { value = value << 4 | UInt32(truncatingIfNeeded: nibbles >> UInt64(8 * index)) & 0xF }
        return value
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension RGBColor: CustomStringConvertible {
    public var description: String { hex }
}
