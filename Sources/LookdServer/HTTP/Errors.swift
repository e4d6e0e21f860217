import Foundation

/// An error answered as `{"error": {"code": "…", "message": "…"}}` with an HTTP status.
/// `code` is stable (clients branch on it); `message` is for people and may change.
/// `details` (already-encoded JSON) is added as `error.details` when present, e.g. diagnostics.
struct HTTPError: Error, Sendable {
    var status: Int
    var code: String
    var message: String
    var headers: [(name: String, value: String)] = []
    var details: [UInt8]? = nil
    var closeConnection = false

    var response: Response {
        var body = "{\"error\":{\"code\":" + jsonString(code) + ",\"message\":" + jsonString(message)
        var bytes = Array(body.utf8)
        if let details {
            bytes += Array(",\"details\":".utf8) + details
        }
        body = "}}"
        bytes += Array(body.utf8)
        var response = Response.json(bytes, status: status, headers: headers)
        response.closeConnection = closeConnection
        return response
    }

    // The stable codes. Each maps to one status.
    static func badRequest(_ code: String, _ message: String) -> HTTPError { HTTPError(status: 400, code: code, message: message) }
    static func jsonInvalid(_ message: String) -> HTTPError { HTTPError(status: 400, code: "json_invalid", message: message) }
    static func keyInvalid(_ message: String) -> HTTPError { HTTPError(status: 400, code: "key_invalid", message: message) }
    static func appUnknown(_ key: String) -> HTTPError { HTTPError(status: 404, code: "app_unknown", message: "no look has been published for this app key") }
    static func routeUnknown(_ path: String) -> HTTPError { HTTPError(status: 404, code: "route_unknown", message: "no route for this path") }
    static func methodNotAllowed(_ allowed: [String]) -> HTTPError {
        HTTPError(status: 405, code: "method_not_allowed", message: "allowed: " + allowed.joined(separator: ", "),
                  headers: [("Allow", allowed.joined(separator: ", "))])
    }
    static func unauthorized(_ message: String) -> HTTPError {
        HTTPError(status: 401, code: "unauthorized", message: message, headers: [("WWW-Authenticate", "Bearer realm=\"lookd-admin\"")])
    }
    static func forbidden(_ message: String) -> HTTPError { HTTPError(status: 403, code: "forbidden", message: message) }
    static func preconditionFailed(_ message: String, headers: [(name: String, value: String)] = []) -> HTTPError {
        HTTPError(status: 412, code: "version_conflict", message: message, headers: headers)
    }
    static func preconditionRequired(_ message: String) -> HTTPError { HTTPError(status: 428, code: "precondition_required", message: message) }
    static func bodyTooLarge(_ limit: Int) -> HTTPError {
        HTTPError(status: 413, code: "body_too_large", message: "the request body is larger than \(limit) bytes", closeConnection: true)
    }
    static func headersTooLarge(_ limit: Int) -> HTTPError {
        HTTPError(status: 431, code: "headers_too_large", message: "the request headers are larger than \(limit) bytes", closeConnection: true)
    }
    static func uriTooLong(_ limit: Int) -> HTTPError {
        HTTPError(status: 414, code: "uri_too_long", message: "the request target is longer than \(limit) bytes", closeConnection: true)
    }
    static func limitExceeded(_ message: String) -> HTTPError { HTTPError(status: 400, code: "limit_exceeded", message: message) }
    static func smuggling(_ message: String) -> HTTPError {
        HTTPError(status: 400, code: "request_ambiguous", message: message, closeConnection: true)
    }
    static func unsupportedMediaType(_ message: String) -> HTTPError { HTTPError(status: 415, code: "unsupported_media_type", message: message) }
    static func storeUnavailable(_ message: String) -> HTTPError {
        HTTPError(status: 503, code: "store_unavailable", message: message, headers: [("Retry-After", "1")])
    }
    static func internalError(_ message: String) -> HTTPError { HTTPError(status: 500, code: "internal", message: message) }
}
