import Foundation

/// Why the look a ``LookClient`` returned is not fresh from the server. The look itself is always there: the last
/// good one, or the built-in one. Stable cases; match on them.
public enum LookClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server could not be reached or the connection failed mid-answer (refused, reset, cut short).
    case unreachable(String)
    /// No complete answer within the request timeout.
    case timedOut
    /// The calling task was cancelled.
    case cancelled
    /// The server answered this status; `code` is its JSON error code (`app_unknown`, `store_unavailable`, …) when it
    /// sent one.
    case status(Int, code: String?)
    /// The server answered 429 or 503 and asked the client to wait this many seconds (`Retry-After`).
    case rateLimited(status: Int, retryAfter: TimeInterval)
    /// The client is waiting until this time (a `Retry-After`, or backoff after failures) and sent nothing.
    case backingOff(until: Date)
    /// The answer was not the documented fetch answer: not JSON, truncated, another app's, a malformed field.
    case invalidAnswer(String)
    /// A 304 for an entity tag the client never sent.
    case unexpectedNotModified
    /// The server answered an older version than the one the client holds (a stale CDN edge); it was ignored.
    case olderVersion(received: Int, kept: Int)
    /// The server refused the preview token (403 `preview_token_invalid`: forged, expired, revoked, another app's, or
    /// its draft was saved, deleted or published since). The client forgot the token; the look is the published one.
    case previewTokenInvalid

    public var description: String {
        switch self {
        case .unreachable(let reason): "the server is unreachable: \(reason)"
        case .timedOut: "the request timed out"
        case .cancelled: "the request was cancelled"
        case .status(let status, let code): "the server answered \(status)\(code.map { " (\($0))" } ?? "")"
        case .rateLimited(let status, let seconds): "the server answered \(status) and asked to retry after \(Int(seconds)) s"
        case .backingOff(let until): "waiting before the next request, until \(until)"
        case .invalidAnswer(let reason): "the server's answer is not a look: \(reason)"
        case .unexpectedNotModified: "the server answered 304 for a tag this client never sent"
        case .olderVersion(let received, let kept): "the server answered version \(received), older than the cached \(kept); ignored"
        case .previewTokenInvalid: "the server refused the preview token (expired, revoked or its draft changed); showing the published look"
        }
    }
}
