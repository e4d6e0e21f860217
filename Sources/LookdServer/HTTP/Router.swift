/// A request handler. Throw `HTTPError` for an answer with a stable error code; any other error
/// becomes a 500 `internal` (store errors are mapped to 503 by the service before they get here).
typealias Handler = @Sendable (Request) throws -> Response

/// What the OpenAPI description says about a route. Built next to the route so the two cannot drift.
struct RouteDoc: Sendable {
    var summary: String
    /// Status code → description. Every status the handler can answer must be listed.
    var responses: [Int: String]
    var admin = false
    /// Query parameters: name → description.
    var query: [String: String] = [:]
    /// A short description of the request body, or nil for none.
    var requestBody: String? = nil
    /// The response media type for 2xx answers.
    var contentType = "application/json"
    /// The largest body this route accepts; nil uses `Limits.maxBodyBytes`.
    var maxBodyBytes: (@Sendable (Limits) -> Int)? = nil
    /// Where the handler runs; nil: on the event loop for GET, on the worker pool for every other method.
    var runsOn: Executor? = nil

    init(summary: String, responses: [Int: String], admin: Bool = false, query: [String: String] = [:],
         requestBody: String? = nil, contentType: String = "application/json", maxBodyBytes: (@Sendable (Limits) -> Int)? = nil,
         runsOn: Executor? = nil) {
        self.summary = summary
        self.responses = responses
        self.admin = admin
        self.query = query
        self.requestBody = requestBody
        self.contentType = contentType
        self.maxBodyBytes = maxBodyBytes
        self.runsOn = runsOn
    }

    func bodyLimit(_ limits: Limits) -> Int { maxBodyBytes?(limits) ?? limits.maxBodyBytes }
}

/// Where a route's handler runs.
enum Executor: Sendable {
    /// Inline on the event loop thread that read the request: for answers that take microseconds (cached
    /// fetches, health, metrics). A slow handler here delays every connection of that loop.
    case loop
    /// On the bounded worker pool, apart from the loops (lint, resolve, preview, publish): a slow request can
    /// never delay the fast ones. When the pool's queue is full the engine answers 503 + Retry-After.
    case workers
}

/// One route: an HTTP method and a path pattern whose `{name}` segments capture one path segment.
/// A class, so matching hands out a reference rather than copying the handler and its description.
final class Route: Sendable {
    let method: String
    let pattern: String
    let handler: Handler
    let doc: RouteDoc
    /// True when the handler runs on the worker pool (`RouteDoc.runsOn`, or its default for the method).
    let runsOnWorkers: Bool

    fileprivate let segments: [Segment]

    init(_ method: String, _ pattern: String, doc: RouteDoc, handler: @escaping Handler) {
        self.method = method
        self.pattern = pattern
        self.handler = handler
        self.doc = doc
        self.runsOnWorkers = (doc.runsOn ?? (method == "GET" ? .loop : .workers)) == .workers
        self.segments = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(Array(part.utf8))
        }
    }
}

private enum Segment: Sendable {
    case literal([UInt8])
    case parameter(String)
}

/// The result of matching a request against the routes.
enum RouteMatch {
    case found(Route, parameters: [String: String])
    /// The path exists but not for this method: the allowed methods.
    case wrongMethod([String], pattern: String)
    case notFound
}

/// Method + path pattern → handler. Patterns are compared segment by segment; literals win over
/// parameters only by registration order, so register specific routes first. `HEAD` matches `GET`.
struct Router: Sendable {
    private(set) var routes: [Route] = []

    mutating func add(_ route: Route) { routes.append(route) }

    func match(method: String, path: String) -> RouteMatch {
        let parts = Array(path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst())
        var allowed: [String] = []
        var allowedPattern = ""
        for route in routes {
            guard let parameters = Self.bind(route.segments, parts) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                return .found(route, parameters: parameters)
            }
            allowed.append(route.method)
            allowedPattern = route.pattern
        }
        if allowed.isEmpty { return .notFound }
        if allowed.contains("GET") { allowed.append("HEAD") }
        return .wrongMethod(allowed, pattern: allowedPattern)
    }

    private static func bind(_ segments: [Segment], _ parts: [Substring.UTF8View]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        for (segment, part) in zip(segments, parts) {
            if case .literal(let literal) = segment, !part.elementsEqual(literal) { return nil }
            if case .parameter = segment, part.isEmpty { return nil }
        }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            if case .parameter(let name) = segment { parameters[name] = String(Substring(part)) }
        }
        return parameters
    }
}
