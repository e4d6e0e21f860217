import Foundation

/// One HTTP request as the router sees it: the whole body has been read (within the limits) and the path is
/// percent-decoded. A plain value: the server fills it from the connection, tests build it in process with
/// `init(method:path:query:headers:body:)`, and routes read it the same way either way.
struct Request: Sendable {
    var method: String
    /// The decoded path, without the query.
    var path: String
    /// The raw query after `?` (empty when none), as received: with `path`, the key of the engine's response cache.
    var rawQuery = ""
    var body: [UInt8]
    /// The request id echoed in `X-Request-Id` and the access log.
    var requestID: String
    /// Path parameters filled by the router (`{appKey}` → value).
    var parameters: [String: String] = [:]
    /// True while the handler runs on an event loop thread (a `.loop` route as served): it may then throw
    /// `RunOnWorkers` to be run again on the worker pool. False on a worker and in tests that call handlers directly.
    var onEventLoop = false
    /// What the SDK fetch's answers carry beyond the fixed fields: the daemon's setting (`LookResponse.Options`).
    var fetchOptions = LookResponse.Options()
    /// The target as the engine's response cache keys it: the decoded path, then `?` and the raw query when there is one.
    var cacheTarget: String { rawQuery.isEmpty ? path : path + "?" + rawQuery }
    /// Header fields in arrival order (names as sent).
    private var headers: [(name: String, value: String)]
    /// Decoded query arguments in order; an argument without `=` has the value "".
    private var queryItems: [(name: String, value: String)]

    /// A request with the given parts; `query` is decoded already.
    init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [],
         body: [UInt8] = [], requestID: String = "test") {
        self.method = method
        self.path = path
        self.queryItems = query
        self.headers = headers
        self.body = body
        self.requestID = requestID
    }

    /// The value of header `name` (case-insensitive; the first when repeated), or nil.
    func header(_ name: String) -> String? {
        headers.first { equalIgnoringASCIICase($0.name, name) }?.value
    }

    /// The values of every field line named `name` (ASCII case-insensitive) joined with ", ", as RFC 9110 §5.3
    /// combines the lines of a list-based field (If-None-Match, Accept-Encoding, …), or nil when there is none.
    func fieldList(_ name: String) -> String? {
        let values = headers.filter { equalIgnoringASCIICase($0.name, name) }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The decoded value of query argument `name` (case-sensitive; the first when repeated), or nil.
    func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}

/// One HTTP response. `body` is sent as is (not for HEAD, 204 and 304); `closeConnection` adds
/// `Connection: close` and closes the connection once the response is written.
struct Response: Sendable {
    // Changing any part of a prebuilt response drops its wire bytes, so what is sent is always what the value says.
    var status: Int { didSet { prepared = nil } }
    var headers: [(name: String, value: String)] { didSet { prepared = nil } }
    var body: [UInt8] { didSet { prepared = nil } }
    var closeConnection = false
    /// Work to run once the response is handed to the engine to write, on the same worker (a publish's prefill of the
    /// response cache): it delays neither this answer nor the loops. Run only for answers made on a worker (a route
    /// answering on an event loop must not set it). Called once, on that worker thread.
    var afterAnswer: (@Sendable () -> Void)?
    /// The wire bytes built once, when this response is a cached one (see `prebuilt`).
    private(set) var prepared: PreparedResponse?

    init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], closeConnection: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.closeConnection = closeConnection
    }

    /// A response whose wire bytes were built once: written without copying or allocating.
    static func prebuilt(_ prepared: PreparedResponse) -> Response {
        var response = Response(status: prepared.status, headers: prepared.headers, body: prepared.body)
        response.prepared = prepared
        return response
    }

    /// A JSON response (`application/json`: JSON is UTF-8 and the media type defines no charset parameter, RFC 8259
    /// §8.1 and §11) with the given UTF-8 bytes.
    static func json(_ body: [UInt8], status: Int = 200, headers: [(name: String, value: String)] = []) -> Response {
        Response(status: status, headers: [("Content-Type", "application/json")] + headers, body: body)
    }

    /// A `text/plain; charset=utf-8` response.
    static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }
}

/// Whether two field names are equal ignoring ASCII case (field names are tokens: ASCII only). Allocates nothing.
func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    return zip(a.utf8, b.utf8).allSatisfy { x, y in x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A) }
}
