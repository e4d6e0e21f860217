/// A preview token: lets whoever holds it fetch one app's draft, at one draft version, until it expires or is
/// revoked. Text: `pv1.<appKey>.<draftVersion>.<epoch>.<expires>.<nonce>.<mac>` — `expires` in Unix seconds, a
/// 128-bit random `nonce` and `mac`, HMAC-SHA256 (OpenSSL through `Crypto`) of everything before it, both in
/// lowercase hex. URL-safe as it is (`?preview=`). Value type; `Sendable`.
struct PreviewToken: Sendable, Equatable {
    var appKey: String
    var draftVersion: Int
    /// The draft's token epoch when it was minted (a revocation bumps the draft's).
    var epoch: Int
    /// Unix seconds.
    var expires: Int

    /// A token lives 1 h unless asked for less or more, and at most 24 h.
    static let defaultLifetime = 3_600
    static let lifetimes = 1...86_400

    /// The token's text, signed under `key`. Throws `CryptoError.randomUnavailable` when no nonce can be drawn.
    func signed(key: [UInt8]) throws(CryptoError) -> String {
        let payload = "pv1.\(appKey).\(draftVersion).\(epoch).\(expires).\(Crypto.hex(try Crypto.randomBytes(count: 16)))"
        return payload + "." + Crypto.hex(Crypto.hmacSHA256(key: key, data: Array(payload.utf8)))
    }

    /// The claims of `text` when it is a well-formed token whose MAC under `key` is right (compared in constant
    /// time); nil otherwise. Says nothing of expiry or the draft: the caller checks those.
    init?(verifying text: String, key: [UInt8]) {
        guard text.utf8.count <= 256 else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 7, parts[0] == "pv1", parts[5].utf8.count == 32, parts[6].utf8.count == 64,
              let mac = Crypto.bytes(hex: parts[6]), Crypto.bytes(hex: parts[5]) != nil else { return nil }
        let payload = parts[0..<6].joined(separator: ".")
        guard Crypto.constantTimeEqual(Crypto.hmacSHA256(key: key, data: Array(payload.utf8)), mac) else { return nil }
        guard let version = Int(parts[2]), let epoch = Int(parts[3]), let expires = Int(parts[4]) else { return nil }
        self.init(appKey: String(parts[1]), draftVersion: version, epoch: epoch, expires: expires)
    }

    init(appKey: String, draftVersion: Int, epoch: Int, expires: Int) {
        self.appKey = appKey
        self.draftVersion = draftVersion
        self.epoch = epoch
        self.expires = expires
    }
}
