import StableJSON

/// An error answered as `{"error": {"code": "…", "message": "…"}}` with an HTTP status: the HTTP layer's own
/// refusals (framing, limits, media type, parameters). The services' domain errors are mapped to it in
/// `ErrorResponses.swift`.
/// `code` is stable (clients branch on it); `message` is for people and may change.
/// `details` is added as `error.details` when present, e.g. diagnostics. Written by StableJSON's writer (keys sorted).
struct HTTPError: Error, Sendable {
    var status: Int
    var code: String
    var message: String
    var headers: [(name: String, value: String)] = []
    var details: JSONValue? = nil
    var closeConnection = false

    var response: Response {
        var writer = JSONWriter(capacity: 128 + message.utf8.count)
        writer.beginObject()
        writer.key("error")
        writer.beginObject()
        writer.member("code", code)
        if let details {
            writer.key("details")
            writer.write(details)
        }
        writer.member("message", message)
        writer.endObject()
        writer.endObject()
        var response = Response.json(writer.bytes, status: status, headers: headers)
        response.closeConnection = closeConnection
        return response
    }

    // The stable codes. Each maps to one status.
    static func badRequest(_ code: String, _ message: String) -> HTTPError { HTTPError(status: 400, code: code, message: message) }
    static func jsonInvalid(_ message: String) -> HTTPError { HTTPError(status: 400, code: "json_invalid", message: message) }
    static func keyInvalid(_ message: String) -> HTTPError { HTTPError(status: 400, code: "key_invalid", message: message) }
    static func routeUnknown(_ path: String) -> HTTPError { HTTPError(status: 404, code: "route_unknown", message: "no route for this path") }
    static func methodNotAllowed(_ allowed: [String]) -> HTTPError {
        HTTPError(status: 405, code: "method_not_allowed", message: "allowed: " + allowed.joined(separator: ", "),
                  headers: [("Allow", allowed.joined(separator: ", "))])
    }
    static func preconditionRequired(_ message: String) -> HTTPError { HTTPError(status: 428, code: "precondition_required", message: message) }
    static func limitExceeded(_ message: String) -> HTTPError { HTTPError(status: 400, code: "limit_exceeded", message: message) }
    static func unsupportedMediaType(_ message: String) -> HTTPError { HTTPError(status: 415, code: "unsupported_media_type", message: message) }
    static func internalError(_ message: String) -> HTTPError { HTTPError(status: 500, code: "internal", message: message) }
}
