/// App keys: `pk_live_…` (production) and `pk_test_…` (test apps). Public, shipped inside apps.
///
/// Format: `pk_{live|test}_` + 26 body characters + 7 check characters, all from Crockford's
/// base32 alphabet in lower case (`0-9a-z` without `i l o u`), 41 characters in all, e.g.
/// `pk_live_540dxxtmh32jjac1btdv5rs11r3kjn166` (body `540dxxtmh32jjac1btdv5rs11r`, check `3kjn166`).
/// - body: 128 random bits (from the system's CSPRNG), base32, most significant bits first
///   (26 characters carry 130 bits; the two top bits are zero).
/// - check: CRC-32 (IEEE 802.3, the zlib one) of the ASCII bytes of prefix + body, as 7 base32
///   characters (35 bits; the three top bits are zero).
/// CRC-32 catches every single mistyped character and every swap of two neighbours (both are bursts
/// shorter than 32 bits), so a mistyped key is refused offline — by the SDK, and by lookd with
/// 400 `key_invalid` before any lookup.
public enum AppKey {
    static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
    static let bodyLength = 26
    static let checkLength = 7
    static let length = 8 + bodyLength + checkLength

    /// Why a string is not a valid app key, or nil when it is one.
    public static func problem(_ key: String) -> String? {
        let bytes = Array(key.utf8)
        guard bytes.count == length else { return "an app key is \(length) characters: pk_live_ or pk_test_, then 33 base32 characters" }
        let prefix = String(decoding: bytes[0..<8], as: UTF8.self)
        guard prefix == "pk_live_" || prefix == "pk_test_" else { return "an app key starts with pk_live_ or pk_test_" }
        guard bytes[8...].allSatisfy({ alphabet.contains($0) }) else {
            return "an app key's characters after the prefix are 0-9 and a-z without i, l, o, u"
        }
        guard bytes[0..<(8 + bodyLength)].count == 8 + bodyLength,
              Array(bytes[(8 + bodyLength)...]) == checkCharacters(Array(bytes[0..<(8 + bodyLength)])) else {
            return "the app key's check characters do not match: it was mistyped or truncated"
        }
        return nil
    }

    /// A new random key; `live` picks the `pk_live_` prefix, otherwise `pk_test_`.
    public static func generate(live: Bool) -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        var body: [UInt8] = []
        // 26 characters × 5 bits = 130 bits; read 128 random bits, most significant first.
        for index in 0..<bodyLength {
            let shift = (bodyLength - 1 - index) * 5   // bit offset of this character in a 130-bit number
            var value: UInt64 = 0
            for bit in 0..<5 {
                let position = shift + bit              // 0 ... 129
                let set: Bool
                if position < 64 { set = (low >> UInt64(position)) & 1 == 1 } else if position < 128 { set = (high >> UInt64(position - 64)) & 1 == 1 } else { set = false }
                if set { value |= 1 << UInt64(bit) }
            }
            body.append(alphabet[Int(value)])
        }
        let head = Array((live ? "pk_live_" : "pk_test_").utf8) + body
        return String(decoding: head + checkCharacters(head), as: UTF8.self)
    }

    /// The 7 check characters for prefix + body.
    static func checkCharacters(_ head: [UInt8]) -> [UInt8] {
        let crc = UInt64(crc32(head))
        return (0..<checkLength).map { index in alphabet[Int((crc >> UInt64((checkLength - 1 - index) * 5)) & 31)] }
    }
}

/// CRC-32 (IEEE 802.3 polynomial 0xEDB88320, reflected, initial and final XOR 0xFFFFFFFF) — the
/// zlib/PNG checksum: crc32("123456789") == 0xCBF43926.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc = crc32Table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }
    return crc ^ 0xFFFF_FFFF
}

private let crc32Table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
}
