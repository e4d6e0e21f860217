import Foundation

/// The change feed's own bearer token (`--feed-token-file FILE`, first line, surrounding whitespace trimmed; at
/// least `AdminAuth.minimumLength` bytes), never the admin token. Compared in constant time (`Crypto`). Without a
/// token the feed answers 403: it is never open. Thread-safe (immutable).
struct FeedAuth: Sendable {
    private let token: [UInt8]?

    init(token: String?) {
        self.token = token.map { Array($0.utf8) }
    }

    var isConfigured: Bool { token != nil }

    /// Reads the token file (nil: no feed). Throws a ConfigurationError when it cannot be read, is empty, or is shorter
    /// than `AdminAuth.minimumLength`.
    static func load(file: String?) throws -> FeedAuth {
        guard let file else { return FeedAuth(token: nil) }
        guard let data = FileManager.default.contents(atPath: file) else { throw ConfigurationError("cannot read --feed-token-file \(file)") }
        let token = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard token.utf8.count >= AdminAuth.minimumLength else {
            throw ConfigurationError("the feed token in \(file) must be at least \(AdminAuth.minimumLength) characters")
        }
        return FeedAuth(token: token)
    }

    /// Checks an `Authorization` header value (nil when absent). Throws `FeedAuthError`.
    func authorize(authorization header: String?) throws(FeedAuthError) {
        guard let token else { throw .disabled }
        guard let header else { throw .missingToken }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw .missingToken }
        guard Crypto.constantTimeEqual(Array(parts[1].trimmingCharacters(in: .whitespaces).utf8), token) else { throw .wrongToken }
    }
}

/// Why a feed request was refused.
enum FeedAuthError: Error, Sendable, Equatable {
    /// No feed token is configured: the feed is off.
    case disabled
    /// No `Authorization: Bearer …` header.
    case missingToken
    /// A bearer token that is not the feed token.
    case wrongToken

    var message: String {
        switch self {
        case .disabled: "the change feed is disabled: start lookd with --feed-token-file"
        case .missingToken: "the change feed needs Authorization: Bearer <feed token>"
        case .wrongToken: "the feed token is wrong"
        }
    }
}
