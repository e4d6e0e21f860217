import Foundation

/// Admin authentication: `Authorization: Bearer <token>`, compared in constant time.
/// The token comes from `--admin-token-file` (first line, surrounding whitespace trimmed) or the
/// `LOOKD_ADMIN_TOKEN` environment variable. Without a token, every admin route answers 403: the
/// daemon never runs with an open admin API.
struct AdminAuth: Sendable {
    private let token: [UInt8]?

    /// Shortest token accepted, in bytes. A shorter configured token is refused at start-up.
    static let minimumLength = 16

    init(token: String?) {
        self.token = token.map { Array($0.utf8) }
    }

    var isConfigured: Bool { token != nil }

    /// The key that signs preview tokens: HMAC-SHA256 of a fixed label under the admin token, so every replica with
    /// the same token verifies the others' tokens and a new admin token retires every preview token. nil without a
    /// token (then no preview token is valid).
    var previewTokenKey: [UInt8]? {
        token.map { Crypto.hmacSHA256(key: $0, data: Array("lookd preview tokens v1".utf8)) }
    }

    /// Loads the token: the file wins over the environment. Throws a ConfigurationError when the file
    /// cannot be read or the token is shorter than `minimumLength`.
    static func load(file: String?, environment: [String: String]) throws -> AdminAuth {
        var token: String?
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else { throw ConfigurationError("cannot read --admin-token-file \(file)") }
            token = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first
                .map { $0.trimmingCharacters(in: .whitespaces) }
        } else if let value = environment["LOOKD_ADMIN_TOKEN"] {
            token = value.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let token, token.isEmpty { return AdminAuth(token: nil) }
        if let token, token.utf8.count < minimumLength {
            throw ConfigurationError("the admin token must be at least \(minimumLength) characters")
        }
        return AdminAuth(token: token)
    }

    /// Checks an `Authorization` header value (nil when absent). Throws `AdminAuthError.disabled` when no
    /// token is configured, `.missingToken` / `.wrongToken` when the bearer token is absent or wrong.
    func authorize(authorization header: String?) throws {
        guard let token else { throw AdminAuthError.disabled }
        guard let header else { throw AdminAuthError.missingToken }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw AdminAuthError.missingToken }
        guard constantTimeEqual(Array(parts[1].trimmingCharacters(in: .whitespaces).utf8), token) else {
            throw AdminAuthError.wrongToken
        }
    }
}

/// Why an admin request was refused.
public enum AdminAuthError: Error, Sendable, Equatable {
    /// No admin token is configured: the admin API is off.
    case disabled
    /// No `Authorization: Bearer …` header.
    case missingToken
    /// A bearer token that is not the configured one.
    case wrongToken

    public var message: String {
        switch self {
        case .disabled: "admin routes are disabled: start lookd with --admin-token-file or LOOKD_ADMIN_TOKEN"
        case .missingToken: "this route needs Authorization: Bearer <admin token>"
        case .wrongToken: "the admin token is wrong"
        }
    }
}

/// Compares two byte strings in time that depends only on their lengths, never on where they differ.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(a.count == b.count ? 0 : 1)
    let count = max(a.count, b.count)
    for index in 0..<count {
        let x = index < a.count ? a[index] : 0
        let y = index < b.count ? b[index] : 0
        difference |= x ^ y
    }
    return difference == 0
}
