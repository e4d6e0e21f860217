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

    /// Throws 403 `forbidden` when no token is configured, 401 `unauthorized` when the request's
    /// bearer token is missing or wrong.
    func authorize(_ request: Request) throws {
        guard let token else {
            throw HTTPError.forbidden("admin routes are disabled: start lookd with --admin-token-file or LOOKD_ADMIN_TOKEN")
        }
        guard let header = request.header("authorization") else {
            throw HTTPError.unauthorized("this route needs Authorization: Bearer <admin token>")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw HTTPError.unauthorized("this route needs Authorization: Bearer <admin token>")
        }
        guard constantTimeEqual(Array(parts[1].trimmingCharacters(in: .whitespaces).utf8), token) else {
            throw HTTPError.unauthorized("the admin token is wrong")
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
