/// The SDK fetch's strong entity tag (RFC 9110 §8.8.3) for one app version and language, identity coding:
/// `"v<version>-<8 characters>"`, the characters the base64url alphabet (RFC 4648 §5) spelling 48 bits of the body's
/// hash (`FetchBody.tagHash`, FNV-1a 64 folded by xor of its top 16 bits into its low 48). Each other coding's tag puts
/// its letter in place of the `-` (`ContentCoding.etag`: `"v3bAbC-_x9Z"` for br, `"v3gAbC-_x9Z"` for gzip).
///
/// Why this form: the tag is on every fetch answer and its 304, where a compressed answer is about 1 KB
/// (docs/benchmarks.md, runs L and N: with `"v3-<16 hex digits>-br"` lookd's br answer was 10 bytes larger than nginx's).
/// The version stays readable (`If-Match` on a publish accepts a fetch's tag, `EntityTag.version`); 48 bits tell the
/// ~50 languages of one app version apart (the URL names the app, the tag the version) with a chance of a collision
/// of about 50² / 2^49 ≈ 4·10⁻¹², and the tag changes when the bytes do.
/// Pure; thread-safe.
enum FetchTag {
    /// The identity tag, quotes included.
    static func make(version: Int, hash: UInt64) -> String {
        let folded = (hash ^ (hash >> 48)) & 0xFFFF_FFFF_FFFF
        // Written in place: the interpolation, the array and the decoding it replaced were ~1,900 instructions of each
        // language a fill builds (docs/benchmarks.md, run S).
        let digits = String(version).utf8
        return String(unsafeUninitializedCapacity: digits.count + 12) { tag in
            tag[0] = UInt8(ascii: "\"")
            tag[1] = UInt8(ascii: "v")
            var at = 2
            for digit in digits {
                tag[at] = digit
                at += 1
            }
            tag[at] = UInt8(ascii: "-")
            for index in (0..<8).reversed() {
                at += 1
                tag[at] = base64url[Int((folded >> UInt64(6 * index)) & 63)]
            }
            tag[at + 1] = UInt8(ascii: "\"")
            return at + 2
        }
    }

    /// Characters after the version's separator.
    static let hashLength = 8

    /// The base64url alphabet (RFC 4648 §5, table 2), each a byte.
    static let base64url: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
