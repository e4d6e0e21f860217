import CCrypto

/// lookd's cryptography, from OpenSSL's libcrypto through the CCrypto shim (never hand-written): HMAC-SHA256,
/// SHA-256, constant-time comparison, random bytes, and lowercase hex. Every function is pure or uses
/// OpenSSL's thread-safe generator: safe to call from any thread at the same time.
public enum Crypto {
    /// Bytes in a SHA-256 digest and in an HMAC-SHA256 tag (32).
    public static let digestLength = Int(LOOKD_CRYPTO_DIGEST_LENGTH)

    /// HMAC-SHA256 (RFC 2104) of `data` under `key`: 32 bytes. Any key length, 0 included.
    /// Traps only if libcrypto cannot allocate (out of memory), as Swift does for its own allocations.
    public static func hmacSHA256(key: some Collection<UInt8>, data: some Collection<UInt8>) -> [UInt8] {
        withContiguous(key) { key in
            withContiguous(data) { data in
                var out = [UInt8](repeating: 0, count: digestLength)
                let ok = out.withUnsafeMutableBufferPointer {
                    lookd_crypto_hmac_sha256(key.baseAddress, key.count, data.baseAddress, data.count, $0.baseAddress)
                }
                precondition(ok == 1, "libcrypto HMAC-SHA256 failed (out of memory)")
                return out
            }
        }
    }

    /// SHA-256 (FIPS 180-4) of `data`: 32 bytes.
    public static func sha256(_ data: some Collection<UInt8>) -> [UInt8] {
        withContiguous(data) { data in
            var out = [UInt8](repeating: 0, count: digestLength)
            let ok = out.withUnsafeMutableBufferPointer { lookd_crypto_sha256(data.baseAddress, data.count, $0.baseAddress) }
            precondition(ok == 1, "libcrypto SHA-256 failed (out of memory)")
            return out
        }
    }

    /// True when `a` and `b` are the same bytes. Different lengths answer false at once (a length is not a
    /// secret); equal lengths are compared in time that depends only on the length, never on where they differ.
    public static func constantTimeEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return withContiguous(a) { a in
            withContiguous(b) { b in lookd_crypto_equal(a.baseAddress, b.baseAddress, a.count) == 1 }
        }
    }

    /// `count` (0...Int32.max) bytes from OpenSSL's CSPRNG. Throws `CryptoError.randomUnavailable` when the
    /// generator cannot be seeded; the caller must then refuse the operation, never fall back to a weak source.
    public static func randomBytes(count: Int) throws(CryptoError) -> [UInt8] {
        precondition(count >= 0 && count <= Int(Int32.max), "randomBytes count out of range")
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBytes { lookd_crypto_random($0.baseAddress, $0.count) }
        guard ok == 1 else { throw .randomUnavailable }
        return out
    }

    /// Lowercase hexadecimal of `bytes`, two digits a byte ("00ff").
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of a hexadecimal string (either case, even length), or nil when it is not one.
    public static func bytes(hex: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(hex.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func withContiguous<C: Collection<UInt8>, R>(_ bytes: C, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
        return Array(bytes).withUnsafeBufferPointer(body)
    }
}

/// Why a cryptographic operation could not run.
public enum CryptoError: Error, Sendable, Equatable {
    /// OpenSSL's random generator could not be seeded (no entropy source).
    case randomUnavailable
}
