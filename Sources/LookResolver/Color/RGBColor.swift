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
        var utf8 = text.utf8.makeIterator()
        guard utf8.next() == UInt8(ascii: "#") else { return nil }
        var value: UInt32 = 0
        var count = 0
        while let byte = utf8.next() {
            guard count < 8, let nibble = Self.hexValue(byte) else { return nil }
            value = value << 4 | UInt32(nibble)
            count += 1
        }
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
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "#")]
        for channel in [red, green, blue] {
            bytes.append(digits[Int(channel >> 4)])
            bytes.append(digits[Int(channel & 15)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func < (lhs: RGBColor, rhs: RGBColor) -> Bool {
        (lhs.red, lhs.green, lhs.blue) < (rhs.red, rhs.green, rhs.blue)
    }

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
