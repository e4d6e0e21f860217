/// A request handler. Throw `HTTPError`, or a domain error that `HTTP/ErrorResponses.swift` maps, for an answer
/// with a stable error code; any other error becomes a 500 `internal`.
typealias Handler = @Sendable (Request) throws -> Response

/// What the OpenAPI description says about a route. Built next to the route so the two cannot drift.
struct RouteDoc: Sendable {
    var summary: String
    /// Status code → description. Every status the handler can answer must be listed.
    var responses: [Int: String]
    var admin = false
    /// True when the route needs the change feed's token (`FeedAuth`) instead.
    var feedToken = false
    /// Query parameters: name → description.
    var query: [String: String] = [:]
    /// A short description of the request body, or nil for none.
    var requestBody: String? = nil
    /// The response media type for 2xx answers.
    var contentType = "application/json"
    /// Other media types a 2xx answer may have, chosen by the request (e.g. `text/html` by `?format=html`).
    var alternateContentTypes: [String] = []
    /// The largest body this route accepts; nil uses `Limits.maxBodyBytes`.
    var maxBodyBytes: (@Sendable (Limits) -> Int)? = nil
    /// Where the handler runs; nil: on the event loop for GET, on the worker pool for every other method.
    var runsOn: Executor? = nil
    /// Which workers run it when it runs on the worker pool (or moves there with `RunOnWorkers`).
    var lane: WorkerLane = .shared

    init(summary: String, responses: [Int: String], admin: Bool = false, query: [String: String] = [:],
         requestBody: String? = nil, contentType: String = "application/json", maxBodyBytes: (@Sendable (Limits) -> Int)? = nil,
         feedToken: Bool = false, runsOn: Executor? = nil, alternateContentTypes: [String] = [], lane: WorkerLane = .shared) {
        self.summary = summary
        self.alternateContentTypes = alternateContentTypes
        self.responses = responses
        self.admin = admin
        self.feedToken = feedToken
        self.query = query
        self.requestBody = requestBody
        self.contentType = contentType
        self.maxBodyBytes = maxBodyBytes
        self.runsOn = runsOn
        self.lane = lane
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

/// Which worker threads run a route's requests on the worker pool.
enum WorkerLane: Sendable {
    /// The shared workers (`Limits.workerThreads`): lint, resolve, preview, history, reports. When all are busy,
    /// requests wait in the shared queue.
    case shared
    /// The reserved workers (`Limits.reservedWorkerThreads`), or the first free shared worker before any
    /// shared-lane request: the SDK fetch's misses and publishes, which must never wait behind lint, resolve or
    /// preview. Its queue is apart from the shared one.
    case reserved
}

/// Thrown by a handler running on an event loop (`Request.onEventLoop`) that finds it has slow work to do after all,
/// e.g. a cache miss: the server hands the request to the worker pool, where the handler runs again from the start.
struct RunOnWorkers: Error {}

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
        // Domain errors become their HTTP answer here, once for every route (HTTP/ErrorResponses.swift).
        self.handler = { request in try answeringDomainErrors { try handler(request) } }
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

    /// Matches without splitting the path or allocating, except the parameters of the route found.
    func match(method: String, path: String) -> RouteMatch {
        var path = path
        return path.withUTF8 { bytes in
            var allowed: [String] = []
            var allowedPattern = ""
            for route in routes where Self.matches(route.segments, bytes) {
                if route.method == method || (method == "HEAD" && route.method == "GET") {
                    return .found(route, parameters: Self.parameters(route.segments, bytes))
                }
                allowed.append(route.method)
                allowedPattern = route.pattern
            }
            if allowed.isEmpty { return .notFound }
            if allowed.contains("GET") { allowed.append("HEAD") }
            return .wrongMethod(allowed, pattern: allowedPattern)
        }
    }

    /// The path's segments after the leading "/", as byte ranges, in order; calls `body` with each until it returns false.
    private static func forEachSegment(_ path: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Bool) -> Bool {
        guard path.first == UInt8(ascii: "/") else { return false }
        var start = 1
        while true {
            var end = start
            while end < path.count && path[end] != UInt8(ascii: "/") { end += 1 }
            guard body(start..<end) else { return false }
            if end == path.count { return true }
            start = end + 1
        }
    }

    private static func matches(_ segments: [Segment], _ path: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let walked = forEachSegment(path) { range in
            guard index < segments.count else { return false }
            defer { index += 1 }
            switch segments[index] {
            case .literal(let literal):
                return literal.count == range.count && literal.elementsEqual(path[range])
            case .parameter:
                return !range.isEmpty
            }
        }
        return walked && index == segments.count
    }

    private static func parameters(_ segments: [Segment], _ path: UnsafeBufferPointer<UInt8>) -> [String: String] {
        guard segments.contains(where: { if case .parameter = $0 { return true } else { return false } }) else { return [:] }
        var parameters: [String: String] = [:]
        var index = 0
        _ = forEachSegment(path) { range in
            if case .parameter(let name) = segments[index] {
                parameters[name] = String(decoding: UnsafeBufferPointer(rebasing: path[range]), as: UTF8.self)
            }
            index += 1
            return true
        }
        return parameters
    }
}
