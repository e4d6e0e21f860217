import CMicroHTTPD
import Foundation

/// One HTTP request as the router sees it: the whole body has been read (within the limits) and the
/// path is percent-decoded by libmicrohttpd. Headers and query arguments are looked up on demand in
/// libmicrohttpd's parsed head, so a request only pays for what its handler reads; a Request is
/// therefore valid only while its handler runs (it is never stored or sent to another thread).
struct Request {
    var method: String
    /// The decoded path, without the query.
    var path: String
    var body: [UInt8]
    /// The request id echoed in `X-Request-Id` and the access log.
    var requestID: String
    /// Path parameters filled by the router (`{appKey}` → value).
    var parameters: [String: String] = [:]
    fileprivate let connection: OpaquePointer

    init(method: String, path: String, requestID: String, connection: OpaquePointer) {
        self.method = method
        self.path = path
        self.body = []
        self.requestID = requestID
        self.connection = connection
    }

    /// The value of header `name` (case-insensitive; the first when repeated), or nil.
    func header(_ name: String) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    /// The decoded value of query argument `name` (case-sensitive), or nil. An argument given
    /// without `=` has the value "".
    func query(_ name: String) -> String? {
        guard MHD_lookup_connection_value_n(connection, .GET_ARGUMENT_KIND, name, name.utf8.count, nil, nil) == .YES else { return nil }
        return MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, name).map { String(cString: $0) } ?? ""
    }
}

/// One HTTP response. `body` is sent as is; `closeConnection` adds `Connection: close`, which makes
/// libmicrohttpd close the connection after sending it.
struct Response: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    var closeConnection = false

    init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], closeConnection: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.closeConnection = closeConnection
    }

    /// A JSON response (`application/json; charset=utf-8`) with the given UTF-8 bytes.
    static func json(_ body: [UInt8], status: Int = 200, headers: [(name: String, value: String)] = []) -> Response {
        Response(status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, body: body)
    }

    /// A JSON response from an Encodable value, encoded with sorted keys (stable bytes).
    static func json<T: Encodable>(encoding value: T, status: Int = 200, headers: [(name: String, value: String)] = []) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding our own plain structs cannot fail; if it ever did, answer 500 rather than crash.
        guard let data = try? encoder.encode(value) else {
            return HTTPError.internalError("response encoding failed").response
        }
        return json(Array(data), status: status, headers: headers)
    }

    /// A `text/plain; charset=utf-8` response.
    static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }
}

/// Encodes `string` as a JSON string literal (with quotes), escaping per RFC 8259.
func jsonString(_ string: String) -> String {
    var out = "\""
    out.reserveCapacity(string.utf8.count + 2)
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
            out += String(format: "\\u%04x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    out += "\""
    return out
}
