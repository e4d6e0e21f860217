import CMicroHTTPD
import Foundation
import Synchronization

/// The HTTP server: libmicrohttpd's lifecycle and its C callbacks. The callbacks live in this file
/// (never in main.swift, where Swift would infer them @MainActor and crash when a C thread calls
/// them — docs/design.md#the-shims-one-c-target-per-c-library). Requests are answered on libmicrohttpd's worker threads.
final class Server: Sendable {
    private let context: ServerContext
    // The daemon pointer, set by start and cleared by stop. OpaquePointer is not Sendable; the
    // Mutex makes every access exclusive.
    private let daemon = Mutex<UInt>(0)

    init(router: Router, limits: Limits, metrics: Metrics, accessLog: AccessLog) {
        context = ServerContext(router: router, limits: limits, metrics: metrics, accessLog: accessLog)
    }

    /// Starts listening on `host:port` (a numeric address; port 0 picks a free port) and returns the
    /// bound port. Throws a usage error when the address is not numeric or libmicrohttpd cannot start
    /// (port in use, too many threads).
    func start(host: String, port: UInt16) throws -> UInt16 {
        var address = sockaddr_storage()
        guard lookd_mhd_make_address(host, port, &address) == 0 else {
            throw ConfigurationError("--listen needs a numeric IPv4 or IPv6 address, got \(host)")
        }
        let limits = context.limits
        let threads = limits.threads > 0 ? limits.threads : max(1, ProcessInfo.processInfo.activeProcessorCount)
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        var options: [MHD_OptionItem] = [
            lookd_mhd_option_value(.CONNECTION_LIMIT, limits.maxConnections),
            lookd_mhd_option_value(.PER_IP_CONNECTION_LIMIT, limits.maxConnectionsPerIP),
            lookd_mhd_option_value(.CONNECTION_TIMEOUT, limits.idleTimeoutSeconds),
            // Room for the header block up to twice our own limit, so that we, not libmicrohttpd,
            // answer an oversized header with a JSON 431 in the usual cases.
            lookd_mhd_option_value(.CONNECTION_MEMORY_LIMIT, max(32 * 1024, 2 * (limits.maxHeaderBytes + limits.maxURIBytes) + 16 * 1024)),
            lookd_mhd_option_completed(requestCompleted, contextPointer),
            lookd_mhd_option_connection(connectionNotified, contextPointer),
        ]
        if threads > 1 {
            options.append(lookd_mhd_option_value(.THREAD_POOL_SIZE, threads))
        }
        options.append(lookd_mhd_option_value(.END, 0))
        // MHD_USE_ITC: MHD_quiesce_daemon needs it with internal threads (Fact 5).
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
        let started: OpaquePointer? = withUnsafePointer(to: &address) { storage in
            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                options.withUnsafeBufferPointer { items in
                    lookd_mhd_start(UInt32(flags), socketAddress, accessHandler, contextPointer, items.baseAddress)
                }
            }
        }
        guard let started else {
            throw ConfigurationError("cannot listen on \(host):\(port) (address in use, or not an address of this machine)")
        }
        daemon.withLock { $0 = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(started))) }
        return lookd_mhd_bound_port(started)
    }

    /// Graceful stop: stops accepting connections at once, lets in-flight requests finish for up to
    /// `grace` seconds, then closes every connection (keep-alive ones included) and the daemon.
    /// Returns the number of requests still in flight when the grace period ran out (0 when clean).
    @discardableResult
    func stop(grace: Double) -> Int {
        let raw = daemon.withLock { value -> UInt in
            defer { value = 0 }
            return value
        }
        guard raw != 0, let started = OpaquePointer(bitPattern: raw) else { return 0 }
        let listener = MHD_quiesce_daemon(started)
        if listener >= 0 { close(listener) }
        let deadline = monotonicSeconds() + grace
        var inflight = context.metrics.inflightRequests.load(ordering: .acquiring)
        while inflight > 0 && monotonicSeconds() < deadline {
            usleep(10_000)
            inflight = context.metrics.inflightRequests.load(ordering: .acquiring)
        }
        MHD_stop_daemon(started)
        return inflight
    }
}

/// Everything the C callbacks need; shared by libmicrohttpd's worker threads. Immutable or atomic.
final class ServerContext: Sendable {
    let router: Router
    let limits: Limits
    let metrics: Metrics
    let accessLog: AccessLog
    let requestIDs = RequestIDs()

    init(router: Router, limits: Limits, metrics: Metrics, accessLog: AccessLog) {
        self.router = router
        self.limits = limits
        self.metrics = metrics
        self.accessLog = accessLog
    }
}

/// Per-request state, kept in libmicrohttpd's `*req_cls` from the handler's first call to the
/// completion callback. Only the connection's own thread touches it.
private final class RequestState {
    let started = monotonicSeconds()
    let requestID: String
    var calls = 0
    var request: Request?
    var route: Route?
    var routeLabel = "unmatched"
    var bodyLimit = 0
    /// A rejection decided from the request head; sent on the next call, before any body is kept.
    var pending: HTTPError?
    var queued = false
    var status = 0
    var bytes = 0

    init(requestID: String) { self.requestID = requestID }
}

/// libmicrohttpd's access handler. Call 1 reads the head and decides any rejection; later calls
/// receive the body in pieces (bounded by the route's body limit); the call with no data left
/// dispatches. The response is always queued on the second call or later: libmicrohttpd 0.9.75
/// closes the connection when one is queued on the first (Fact 5).
private func accessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let url, let method, let uploadDataSize, let requestContext else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    guard let existing = requestContext.pointee else {
        let state = RequestState(requestID: context.requestIDs.next())
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        state.calls = 1
        context.metrics.inflightRequests.add(1, ordering: .relaxed)
        begin(state, context: context, connection: connection, url: String(cString: url), method: String(cString: method))
        // A refusal that closes the connection is queued now, before any body is read: libmicrohttpd
        // 0.9.75 sends it and closes (Fact 5's close-on-first-call is what we want here). Queued
        // later, while body bytes are still arriving, it would close without sending anything.
        if let pending = state.pending, pending.closeConnection {
            return send(pending.response, state: state, connection: connection)
        }
        return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
    state.calls += 1
    let size = uploadDataSize.pointee
    if state.queued {
        uploadDataSize.pointee = 0
        return .YES
    }
    if size > 0 {
        // Body bytes. Past the limit (a chunked body has no Content-Length to refuse it up front),
        // the rest is read and dropped, and the 413 is sent when the body ends.
        uploadDataSize.pointee = 0
        if state.pending == nil, let uploadData {
            if (state.request?.body.count ?? 0) + size > state.bodyLimit {
                state.pending = .bodyTooLarge(state.bodyLimit)
                state.request?.body = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: size) { bytes in
                    state.request?.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: size))
                }
            }
        }
        return .YES
    }
    if let pending = state.pending {
        return send(pending.response, state: state, connection: connection)
    }
    return send(dispatch(state, context: context), state: state, connection: connection)
}

/// Reads the request head and decides, before any body arrives, whether to refuse it.
private func begin(_ state: RequestState, context: ServerContext, connection: OpaquePointer, url: String, method: String) {
    var head = lookd_mhd_head()
    lookd_mhd_scan_head(connection, &head)
    state.request = Request(method: method, path: url, query: collect(connection, headers: false),
                            headers: collect(connection, headers: true), requestID: state.requestID)
    state.pending = decideHead(state, context: context, head: head, url: url, method: method)
    // Refusing a request that still has a body to send: close rather than read the body.
    if state.pending != nil && (head.content_length > 0 || head.has_transfer_encoding != 0) {
        state.pending?.closeConnection = true
    }
}

/// The connection's header fields or query arguments as name/value pairs, in arrival order.
private func collect(_ connection: OpaquePointer, headers: Bool) -> [(name: String, value: String)] {
    var capacity = 1024
    while true {
        var count = 0
        var pairs: [(name: String, value: String)] = []
        let needed = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer -> Int in
            let needed = lookd_mhd_collect(connection, headers ? 1 : 0, buffer.baseAddress, capacity, &count)
            guard needed <= capacity else { return needed }
            var cursor = buffer.baseAddress!
            for _ in 0..<count {
                let name = String(cString: cursor)
                cursor += strlen(cursor) + 1
                let value = String(cString: cursor)
                cursor += strlen(cursor) + 1
                pairs.append((name, value))
            }
            return needed
        }
        if needed <= capacity { return pairs }
        capacity = needed
    }
}

/// The refusal the request head calls for, or nil; sets the route and body limit when it matches.
private func decideHead(_ state: RequestState, context: ServerContext, head: lookd_mhd_head, url: String, method: String) -> HTTPError? {
    let limits = context.limits
    state.bodyLimit = limits.maxBodyBytes
    if url.utf8.count + head.query_bytes > limits.maxURIBytes { return .uriTooLong(limits.maxURIBytes) }
    if head.header_bytes > limits.maxHeaderBytes { return .headersTooLarge(limits.maxHeaderBytes) }
    // Request smuggling (Fact 5: libmicrohttpd accepts both of these): answer 400 and close.
    if head.content_lengths_differ != 0 { return .smuggling("the request has conflicting Content-Length headers") }
    if head.content_length_count > 0 && head.has_transfer_encoding != 0 {
        return .smuggling("the request has both Transfer-Encoding and Content-Length")
    }
    if head.content_length == -2 { return .smuggling("the Content-Length header is not a number") }
    if !isCleanPath(url) { return .badRequest("path_invalid", "the path has dot segments or control characters") }
    switch context.router.match(method: method, path: url) {
    case .found(let route, let parameters):
        state.route = route
        state.routeLabel = route.pattern
        state.request?.parameters = parameters
        state.bodyLimit = route.doc.bodyLimit(limits)
    case .wrongMethod(let allowed, let pattern):
        state.routeLabel = pattern
        return .methodNotAllowed(allowed)
    case .notFound:
        return .routeUnknown(url)
    }
    if head.content_length > state.bodyLimit { return .bodyTooLarge(state.bodyLimit) }
    return nil
}

/// True for an absolute path with no `.` or `..` segment and no control character (a %00 already
/// ended the C string libmicrohttpd handed over).
private func isCleanPath(_ path: String) -> Bool {
    var utf8 = path.utf8.makeIterator()
    guard utf8.next() == UInt8(ascii: "/") else { return false }
    var segmentLength = 0
    var dots = 0
    for byte in path.utf8.dropFirst() {
        if byte < 0x20 || byte == 0x7F { return false }
        if byte == UInt8(ascii: "/") {
            if segmentLength > 0 && dots == segmentLength && dots <= 2 { return false }
            segmentLength = 0
            dots = 0
            continue
        }
        segmentLength += 1
        if byte == UInt8(ascii: ".") { dots += 1 }
    }
    return !(segmentLength > 0 && dots == segmentLength && dots <= 2)
}

private func dispatch(_ state: RequestState, context: ServerContext) -> Response {
    guard let route = state.route, let request = state.request else {
        return HTTPError.internalError("request state lost").response
    }
    do {
        return try route.handler(request)
    } catch let error as HTTPError {
        return error.response
    } catch {
        ServerLog.error("lookd: \(route.method) \(route.pattern): unexpected error: \(error)")
        return HTTPError.internalError("unexpected error; see the daemon's log with request id \(state.requestID)").response
    }
}

private func send(_ response: Response, state: RequestState, connection: OpaquePointer) -> MHD_Result {
    state.queued = true
    state.status = response.status
    state.bytes = response.body.count
    // Headers packed as NUL-terminated name/value pairs: one buffer, no per-header allocation.
    var packed: [UInt8] = []
    packed.reserveCapacity(256)
    var count = 0
    func add(_ name: String, _ value: String) {
        packed += name.utf8
        packed.append(0)
        packed += value.utf8
        packed.append(0)
        count += 1
    }
    for header in response.headers { add(header.name, header.value) }
    add("X-Request-Id", state.requestID)
    if response.closeConnection { add("Connection", "close") }
    return response.body.withUnsafeBytes { body in
        packed.withUnsafeBufferPointer { headers in
            headers.withMemoryRebound(to: CChar.self) { names in
                lookd_mhd_respond(connection, UInt32(response.status), names.baseAddress, count, body.baseAddress, body.count)
            }
        }
    }
}

/// Called once per request that reached the access handler, after its response was sent or the
/// connection failed. Logs, counts, and releases the request state.
private func requestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ reason: MHD_RequestTerminationCode
) {
    guard let cls, let requestContext, let pointer = requestContext.pointee else { return }
    requestContext.pointee = nil
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let state = Unmanaged<RequestState>.fromOpaque(pointer).takeRetainedValue()
    context.metrics.inflightRequests.subtract(1, ordering: .relaxed)
    guard state.queued else { return }
    let duration = monotonicSeconds() - state.started
    let method = state.request?.method ?? "?"
    context.metrics.recordRequest(method: method, route: state.routeLabel, status: state.status, durationSeconds: duration)
    context.accessLog.record(method: method, route: state.routeLabel, status: state.status, bytes: state.bytes,
                             durationSeconds: duration, requestID: state.requestID)
}

private func connectionNotified(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ event: MHD_ConnectionNotificationCode
) {
    guard let cls else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    if event == .CONNECTION_NOTIFY_STARTED {
        context.metrics.openConnections.add(1, ordering: .relaxed)
    } else {
        context.metrics.openConnections.subtract(1, ordering: .relaxed)
    }
}
