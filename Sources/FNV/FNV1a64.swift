/// FNV-1a, 64 bits (Fowler–Noll–Vo, as specified in draft-eastlake-fnv: offset basis 0xcbf29ce484222325, prime
/// 0x100000001b3): for each byte, xor it in, then multiply by the prime, modulo 2^64. The one FNV of the package:
/// the catalog's key index, response ETags and the SDK's cache-file checksum all use it. Not cryptographic: it tells
/// byte strings apart, it does not resist an adversary. Pure Swift, stateless, thread-safe.
public enum FNV1a64 {
    /// The offset basis: the hash of no bytes.
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// The 64-bit FNV prime, 2^40 + 2^8 + 0xb3.
    public static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of `bytes`, continuing from `hash` (default: the offset basis, i.e. a fresh hash), so that a value
    /// can be hashed in pieces: `hash(b, from: hash(a)) == hash(a + b)`.
    @inlinable
    public static func hash(_ bytes: some Sequence<UInt8>, from hash: UInt64 = offsetBasis) -> UInt64 {
        var hash = hash
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    /// The hash of `bytes` as exactly 16 lower-case hex digits (leading zeros kept).
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        hex(hash: hash(bytes))
    }

    /// A hash as exactly 16 lower-case hex digits (leading zeros kept).
    public static func hex(hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
