/// The `Lookd-Signature` header (docs/webhooks.md): `t=UNIX_SECONDS,v1=HEX`, where HEX is the lowercase hex of
/// HMAC-SHA256 with the webhook secret over the bytes of `UNIX_SECONDS`, a `.`, and the request body — the scheme
/// payment and source-hosting platforms use. A receiver recomputes it, compares in constant time, and refuses a `t`
/// too far from its clock (a replay). Pure functions over `Crypto`: thread-safe.
enum WebhookSignature {
    /// How far a signature's `t` may be from the verifier's clock, seconds (the documented default).
    static let toleranceSeconds: Int64 = 300

    /// The header value for `body` signed at `timestamp` (Unix seconds).
    static func header(secret: [UInt8], timestamp: Int64, body: [UInt8]) -> String {
        "t=\(timestamp),v1=\(Crypto.hex(tag(secret: secret, timestamp: timestamp, body: body)))"
    }

    /// HMAC-SHA256 over `"\(timestamp)." + body`.
    static func tag(secret: [UInt8], timestamp: Int64, body: [UInt8]) -> [UInt8] {
        Crypto.hmacSHA256(key: secret, data: Array("\(timestamp).".utf8) + body)
    }

    /// Why a signature is refused.
    enum Refusal: Error, Equatable {
        /// Not `t=…,v1=…`.
        case malformed
        /// `t` is more than the tolerance away from now: a replay (or a badly wrong clock).
        case stale
        /// No `v1` matches: forged, or signed with another secret, or the body was changed.
        case mismatch
    }

    /// Verifies a header as a receiver does: parses `t` and every `v1` (several during a secret rotation), refuses a
    /// `t` more than `tolerance` seconds from `now`, and compares each `v1` with the expected tag in constant time.
    static func verify(header: String, body: [UInt8], secret: [UInt8], now: Int64, tolerance: Int64 = toleranceSeconds) throws(Refusal) {
        var timestamp: Int64?
        var signatures: [[UInt8]] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { throw .malformed }
            switch pair[0].trimmingSpaces {
            case "t": timestamp = Int64(pair[1].trimmingSpaces)
            case "v1": if let bytes = Crypto.bytes(hex: pair[1].trimmingSpaces) { signatures.append(bytes) }
            default: continue
            }
        }
        guard let timestamp, !signatures.isEmpty else { throw .malformed }
        guard abs(now - timestamp) <= tolerance else { throw .stale }
        let expected = tag(secret: secret, timestamp: timestamp, body: body)
        guard signatures.contains(where: { Crypto.constantTimeEqual($0, expected) }) else { throw .mismatch }
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
