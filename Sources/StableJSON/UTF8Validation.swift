/// Well-formed UTF-8 as Unicode defines it (The Unicode Standard, Table 3-7): no overlong forms, no encoded
/// surrogates (U+D800–U+DFFF), nothing above U+10FFFF, no stray or missing continuation bytes.
/// Pure functions over a buffer; thread-safe.
public enum UTF8Validation {
    /// The length (1...4) of the well-formed UTF-8 sequence that starts at `index`, or nil when the bytes there
    /// are not one. `index` must be within `bytes`.
    public static func sequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 { return 1 }
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= low, second <= high else { return nil }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        return length
    }

    /// The offset of the first byte that does not start a well-formed sequence, or nil when all of `bytes` is
    /// well-formed UTF-8. Linear time.
    public static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count {
            guard let length = sequenceLength(in: bytes, at: index) else { return index }
            index += length
        }
        return nil
    }
}
