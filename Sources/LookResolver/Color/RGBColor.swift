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
    public init?(hex text: String) {
        // Native strings are contiguous UTF-8: read the bytes in place (an iterator over `utf8` costs a resolve
        // about 1,000 instructions more; callgrind).
        guard let (value, count) = text.utf8.withContiguousStorageIfAvailable(Self.hexDigits)
            ?? Self.hexDigits(Array(text.utf8)) else { return nil }
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
        String(unsafeUninitializedCapacity: 7) { buffer in
            writeHex(to: buffer.baseAddress!)
            return 7
        }
    }

    /// Writes ``hex``'s seven ASCII bytes at `out`, which must have room for them. The encoder writes each colour
    /// in place with it: building a `String` per colour made encoding a look 5× slower (callgrind).
    func writeHex(to out: UnsafeMutablePointer<UInt8>) {
        let digits: StaticString = "0123456789ABCDEF"
        out[0] = UInt8(ascii: "#")
        for index in 0..<6 {
            out[1 + index] = digits.utf8Start[Int(packed >> UInt32(20 - 4 * index) & 0xF)]
        }
    }

    /// The three channels as one 24-bit number, `0xRRGGBB`.
    public var packed: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

    /// One combine of the packed channels.
    public func hash(into hasher: inout Hasher) { hasher.combine(packed) }

    public static func < (lhs: RGBColor, rhs: RGBColor) -> Bool {
        (lhs.red, lhs.green, lhs.blue) < (rhs.red, rhs.green, rhs.blue)
    }

    /// `#` and 1 to 8 hex digits: their value and how many digits; nil for anything else.
    private static func hexDigits(_ bytes: some Collection<UInt8>) -> (value: UInt32, count: Int)? {
        guard bytes.first == UInt8(ascii: "#"), (2...9).contains(bytes.count) else { return nil }
        var value: UInt32 = 0
        for byte in bytes.dropFirst() {
            guard let digit = hexValue(byte) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return (value, bytes.count - 1)
    }

    /// A hex digit's value (`0-9`, `a-f`, `A-F`), or nil.
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
