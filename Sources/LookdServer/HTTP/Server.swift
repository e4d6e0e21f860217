import Foundation
import HTTPEngine
import Locking

/// The HTTP server: lookd's own HTTP/1.1 engine (the HTTPEngine C target, docs/http.md) and the callbacks that
/// connect it to the router. The callbacks live in this file, never in main.swift, where Swift would infer them
/// @MainActor and crash when an engine thread calls them (docs/design.md#the-shims-one-c-target-per-c-library).
///
/// Fast routes are answered inline on the event loop threads; routes that run on workers (`RouteDoc.runsOn`)
/// are handed to the engine's bounded worker pool. Thread-safe.
final class Server: Sendable {
    private let context: ServerContext
    /// The engine's server pointer, set by start and cleared by stop; the lock makes every access exclusive.
    private let engine = LockedValue<UInt>(0)

    /// `responseCache`: responses the loops answer themselves (nil: none); the routes fill it (`LookResponseCache`).
    /// `fetchOptions`: what the SDK fetch's answers carry beyond the fixed fields (each request's `fetchOptions`, which
    /// the fetch route also fills the response cache with).
    init(router: Router, limits: Limits, metrics: Metrics, accessLog: AccessLog, responseCache: EngineResponseCache? = nil,
         fetchOptions: LookResponse.Options = LookResponse.Options()) {
        context = ServerContext(router: router, limits: limits, metrics: metrics, accessLog: accessLog, responseCache: responseCache,
                                fetchOptions: fetchOptions)
    }

    deinit { stop(grace: 0) }

    /// Starts listening on `host:port` (a numeric address; port 0 picks a free port) and returns the bound port.
    /// Throws `ConfigurationError` when the address is not numeric or cannot be bound, or the threads cannot start.
    func start(host: String, port: UInt16) throws -> UInt16 {
        let limits = context.limits
        let processors = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var config = he_config()
        config.loops = Int32(limits.threads > 0 ? limits.threads : processors)
        config.workers = Int32(limits.workerThreads > 0 ? limits.workerThreads : max(2, processors))
        config.reserved_workers = Int32(max(0, limits.reservedWorkerThreads))
        config.worker_queue = Int32(limits.workerQueue)
        config.body_budget = Int64(limits.bodyBudgetBytes)
        config.max_connections = Int32(limits.maxConnections)
        config.max_connections_per_address = Int32(limits.maxConnectionsPerIP)
        config.connections_for_new_addresses = Int32(limits.connectionsForNewAddresses > 0 ? limits.connectionsForNewAddresses : -1)
        config.min_data_rate = Double(limits.minDataRate)
        config.rate_grace = limits.dataRateGraceSeconds
        config.max_target_bytes = limits.maxURIBytes
        config.max_field_bytes = limits.maxHeaderBytes
        config.max_fields = Int32(limits.maxHeaderFields)
        config.head_timeout = limits.headTimeoutSeconds
        config.body_timeout = limits.bodyTimeoutSeconds
        config.idle_timeout = Double(limits.idleTimeoutSeconds)
        config.write_timeout = limits.writeTimeoutSeconds
        config.handler = handleRequest
        config.body_limit = bodyLimit
        config.response_cache = context.responseCache?.cache
        // The cache's answers reach the access log through this hook; metrics read the engine's own counters.
        config.cached_hook = context.accessLog.fileDescriptor != nil ? cachedAnswer : nil
        config.context = Unmanaged.passUnretained(context).toOpaque()
        var error = [CChar](repeating: 0, count: 256)
        guard let started = he_server_start(host, port, &config, &error, error.count) else {
            let message = error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw ConfigurationError(message.hasPrefix("not a numeric") ? "--listen needs a numeric IPv4 or IPv6 address, got \(host)" : message)
        }
        engine.withLock { $0 = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(started))) }
        context.metrics.readGauges(openConnections: { [weak self] in self?.openConnections ?? 0 }, inflight: { [weak self] in self?.inflight ?? 0 })
        return he_server_port(started)
    }

    /// Connections open now, as the engine counts them (0 when not started). Thread-safe.
    var openConnections: Int {
        engine.withLock { raw in OpaquePointer(bitPattern: raw).map { Int(he_server_open_connections($0)) } ?? 0 }
    }

    /// Requests whose head was read and whose response is not yet completely written, as the engine counts them (0 when
    /// not started). Thread-safe.
    var inflight: Int {
        engine.withLock { raw in OpaquePointer(bitPattern: raw).map { Int(he_server_inflight($0)) } ?? 0 }
    }

    /// Graceful stop: stops accepting at once and closes idle connections, lets requests in progress finish (their
    /// responses written) for up to `grace` seconds, then closes every connection and stops the threads.
    /// Returns the number of requests still unfinished when the grace period ran out (0 when clean).
    @discardableResult
    func stop(grace: Double) -> Int {
        let raw = engine.withLock { value -> UInt in
            defer { value = 0 }
            return value
        }
        guard raw != 0, let started = OpaquePointer(bitPattern: raw) else { return 0 }
        he_server_drain(started)
        let deadline = monotonicSeconds() + grace
        var inflight = he_server_inflight(started)
        while inflight > 0 && monotonicSeconds() < deadline {
            usleep(5_000)
            inflight = he_server_inflight(started)
        }
        he_server_stop(started)
        return inflight
    }
}

/// Everything the callbacks need; shared by the engine's threads. Immutable or atomic.
final class ServerContext: Sendable {
    let router: Router
    let limits: Limits
    let metrics: Metrics
    let accessLog: AccessLog
    let responseCache: EngineResponseCache?
    let fetchOptions: LookResponse.Options

    init(router: Router, limits: Limits, metrics: Metrics, accessLog: AccessLog, responseCache: EngineResponseCache?,
         fetchOptions: LookResponse.Options) {
        self.fetchOptions = fetchOptions
        self.router = router
        self.limits = limits
        self.metrics = metrics
        self.accessLog = accessLog
        self.responseCache = responseCache
    }

    /// Logs an answer of the engine's response cache like any other (its route is the entry's label).
    func loggedCachedAnswer(_ raw: he_request, label: Int, status: Int, bytes: Int, seconds: Double) {
        let route = responseCache.flatMap { label < $0.labels.count ? $0.labels[label] : nil } ?? "unmatched"
        accessLog.record(method: text(raw.method, raw.method_len), route: route, status: status, bytes: bytes, durationSeconds: seconds,
                         requestID: String(cString: raw.request_id))
    }

    /// Answers one request (on a loop thread, or on a worker after `he_defer`).
    func handle(_ raw: he_request, exchange: OpaquePointer, onWorker: Bool) {
        // From the arrival of the request's last bytes (the kernel's stamp): the duration includes the time the request
        // waited for its loop or a worker, as a client sees it.
        let started = raw.received > 0 ? raw.received : monotonicSeconds()
        let requestID = String(cString: raw.request_id)
        let method = text(raw.method, raw.method_len)
        let path = text(raw.path, raw.path_len)
        var routeLabel = "unmatched"
        let response: Response
        var afterAnswer: (@Sendable () -> Void)?
        if path == "*" {
            // OPTIONS * (the only method the engine lets through with this target): what the server offers.
            response = Response(status: 204, headers: [("Allow", "GET, HEAD, POST, PUT, OPTIONS")])
        } else if !isCleanPath(raw.path, raw.path_len) {
            response = HTTPError.badRequest("path_invalid", "the path has dot segments or is not absolute").response
        } else {
            switch router.match(method: method, path: path) {
            case .found(let route, let parameters):
                if route.runsOnWorkers && !onWorker {
                    deferToWorkers(route, exchange)
                    return
                }
                routeLabel = route.pattern
                var request = Request(method: method, path: path, query: queryItems(raw), headers: fields(raw),
                                      body: raw.body_len > 0 ? Array(UnsafeBufferPointer(start: raw.body, count: raw.body_len)) : [],
                                      requestID: requestID)
                request.parameters = parameters
                request.rawQuery = text(raw.query, raw.query_len)
                request.onEventLoop = !onWorker
                request.fetchOptions = fetchOptions
                switch dispatch(route, request) {
                case .answer(let answer):
                    // Made per request on a worker (publish, preview, lint…): compressed here when it is worth it.
                    response = onWorker ? OnTheFlyCompression.apply(answer, acceptEncoding: request.fieldList("accept-encoding")) : answer
                    assert(onWorker || answer.afterAnswer == nil, "\(route.pattern): work after an answer made on an event loop")
                    afterAnswer = onWorker ? answer.afterAnswer : nil
                case .runOnWorkers:
                    deferToWorkers(route, exchange)
                    return
                case .park(let park):
                    guard he_park(exchange) == 0 else {
                        response = HTTPError.internalError("this request cannot wait here; request id \(requestID)").response
                        break
                    }
                    let label = route.pattern
                    // The exchange stays valid until answered; its address crosses threads as a plain number.
                    let address = Int(bitPattern: exchange)
                    park.start(ParkedAnswer { [self] answer in
                        guard let exchange = OpaquePointer(bitPattern: address) else { return }
                        send(answer, exchange: exchange, parked: true)
                        record(method: method, route: label, response: answer, started: started, requestID: requestID)
                    })
                    return
                }
            case .wrongMethod(let allowed, let pattern):
                routeLabel = pattern
                response = HTTPError.methodNotAllowed(allowed).response
            case .notFound:
                response = HTTPError.routeUnknown(path).response
            }
        }
        send(response, exchange: exchange)
        record(method: method, route: routeLabel, response: response, started: started, requestID: requestID)
        // After the answer is the engine's to write (and counted): this worker's work that the answer does not wait for.
        afterAnswer?()
    }

    private func record(method: String, route: String, response: Response, started: Double, requestID: String) {
        let duration = max(0, monotonicSeconds() - started)
        metrics.recordRequest(method: method, route: route, status: response.status, durationSeconds: duration)
        accessLog.record(method: method, route: route, status: response.status, bytes: response.body.count,
                         durationSeconds: duration, requestID: requestID)
    }

    /// Hands the request to the route's worker lane (`RouteDoc.lane`).
    private func deferToWorkers(_ route: Route, _ exchange: OpaquePointer) {
        switch route.doc.lane {
        case .shared: he_defer(exchange)
        case .reserved: he_defer_reserved(exchange)
        }
    }

    /// The body limit for a request about to send a body: its route's, or the default.
    func bodyLimit(_ raw: he_request) -> Int {
        if case .found(let route, _) = router.match(method: text(raw.method, raw.method_len), path: text(raw.path, raw.path_len)) {
            return route.doc.bodyLimit(limits)
        }
        return limits.maxBodyBytes
    }

    private enum Dispatched {
        case answer(Response)
        /// The handler asked to run on the workers instead.
        case runOnWorkers
        /// The handler (on a worker) will answer later.
        case park(ParkRequest)
    }

    private func dispatch(_ route: Route, _ request: Request) -> Dispatched {
        do {
            return .answer(try route.handler(request))
        } catch is RunOnWorkers where request.onEventLoop {
            return .runOnWorkers
        } catch let park as ParkRequest where !request.onEventLoop {
            return .park(park)
        } catch let error as HTTPError {
            return .answer(error.response)
        } catch {
            ServerLog.error("lookd: \(route.method) \(route.pattern): unexpected error: \(error)")
            return .answer(HTTPError.internalError("unexpected error; see the daemon's log with request id \(request.requestID)").response)
        }
    }

    /// Writes `response` to the exchange; `parked`: the exchange was parked (`he_park`) and this is its answer.
    private func send(_ response: Response, exchange: OpaquePointer, parked: Bool = false) {
        if let prepared = response.prepared, !parked {
            he_respond_prepared(exchange, prepared.wire, response.closeConnection ? 1 : 0)
            return
        }
        let fieldBytes = wireFields(response.headers)
        fieldBytes.withUnsafeBufferPointer { fieldBuffer in
            fieldBuffer.withMemoryRebound(to: CChar.self) { names in
                response.body.withUnsafeBytes { body in
                    let respond = parked ? he_respond_parked : he_respond
                    respond(exchange, Int32(response.status), names.baseAddress, names.count, body.baseAddress, body.count,
                            response.closeConnection ? 1 : 0)
                }
            }
        }
    }
}

/// Bytes from the engine as a String (invalid UTF-8 repaired with U+FFFD).
private func text(_ start: UnsafePointer<CChar>?, _ count: Int) -> String {
    guard let start, count > 0 else { return "" }
    return start.withMemoryRebound(to: UInt8.self, capacity: count) { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) }
}

/// The request's header fields in arrival order.
private func fields(_ raw: he_request) -> [(name: String, value: String)] {
    guard let list = raw.fields else { return [] }
    return (0..<raw.field_count).map { index in
        (text(list[index].name, list[index].name_len), text(list[index].value, list[index].value_len))
    }
}

/// The query's arguments, decoded (`+` is a space), in order. The engine has checked every escape.
private func queryItems(_ raw: he_request) -> [(name: String, value: String)] {
    guard let query = raw.query, raw.query_len > 0 else { return [] }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(query).assumingMemoryBound(to: UInt8.self), count: raw.query_len)
    var items: [(name: String, value: String)] = []
    for argument in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
        let equals = argument.firstIndex(of: UInt8(ascii: "="))
        let name = decode(argument[..<(equals ?? argument.endIndex)])
        let value = equals.map { decode(argument[argument.index(after: $0)...]) } ?? ""
        items.append((name, value))
    }
    return items
}

private func decode(_ part: Slice<UnsafeBufferPointer<UInt8>>) -> String {
    guard !part.isEmpty else { return "" }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: part.count) { output in
        let input = UnsafeBufferPointer(rebasing: part)
        let length = UnsafeRawPointer(input.baseAddress!).withMemoryRebound(to: CChar.self, capacity: input.count) { start in
            he_percent_decode(start, input.count, output.baseAddress, 1)
        }
        return text(output.baseAddress, max(0, length))
    }
}

/// True for an absolute path with no `.` or `..` segment (the engine has refused control characters already).
private func isCleanPath(_ start: UnsafePointer<CChar>?, _ count: Int) -> Bool {
    guard let start, count > 0, start[0] == 0x2F else { return false }
    var segmentStart = 1
    for index in 1...count {
        guard index == count || start[index] == 0x2F else { continue }
        let length = index - segmentStart
        if length == 1 && start[segmentStart] == 0x2E { return false }
        if length == 2 && start[segmentStart] == 0x2E && start[segmentStart + 1] == 0x2E { return false }
        segmentStart = index + 1
    }
    return true
}

// MARK: The engine's callbacks

private func handleRequest(_ context: UnsafeMutableRawPointer?, _ request: UnsafePointer<he_request>?, _ exchange: OpaquePointer?, _ onWorker: Int32) {
    guard let context, let request, let exchange else { return }
    Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue().handle(request.pointee, exchange: exchange, onWorker: onWorker != 0)
}

private func cachedAnswer(_ context: UnsafeMutableRawPointer?, _ request: UnsafePointer<he_request>?, _ label: Int32, _ status: Int32,
                          _ bytes: Int, _ seconds: Double) {
    guard let context, let request else { return }
    Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
        .loggedCachedAnswer(request.pointee, label: Int(label), status: Int(status), bytes: bytes, seconds: seconds)
}

private func bodyLimit(_ context: UnsafeMutableRawPointer?, _ request: UnsafePointer<he_request>?) -> Int64 {
    guard let context, let request else { return 0 }
    return Int64(Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue().bodyLimit(request.pointee))
}

