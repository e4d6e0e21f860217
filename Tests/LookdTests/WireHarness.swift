import Foundation
import Testing
import StableJSON
@testable import LookdServer

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP server inside the test process on 127.0.0.1 (a free port), with routes made for wire tests: fast ones
/// on the loop, slow and large ones on the workers. Stopped when released.
final class WireServer: @unchecked Sendable {
    let server: Server
    let port: UInt16
    let metrics = Metrics()
    /// Signalled when `/test/block` starts on a worker; `/test/block` waits for `release` before answering.
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)

    /// The routes: `GET /healthz` (loop), `GET /large?bytes=N` (N bytes of 'x', workers), `POST /echo` (the
    /// body's length and first bytes, workers), `GET /test/block` (waits for `release`, workers), `GET /test/thread`
    /// (the id of the event loop thread that answers it, `{"thread":N}`), `GET /test/nice` and `/test/nice-reserved`
    /// (on a worker in the shared or reserved lane: that thread's nice value and the process's, `{"nice":N,"process":M}`),
    /// and `GET /metrics`.
    init(limits: Limits = WireServer.testLimits()) throws {
        var router = Router()
        router.add(Route("GET", "/healthz", doc: RouteDoc(summary: "health", responses: [200: "ok"])) { _ in
            Response.json(Array(#"{"status":"ok"}"#.utf8))
        })
        router.add(Route("GET", "/large", doc: RouteDoc(summary: "large", responses: [200: "bytes"], runsOn: .workers)) { request in
            let count = Int(request.query("bytes") ?? "0") ?? 0
            return Response(status: 200, headers: [("Content-Type", "application/octet-stream")], body: [UInt8](repeating: UInt8(ascii: "x"), count: count))
        })
        router.add(Route("POST", "/echo", doc: RouteDoc(summary: "echo", responses: [200: "the body"])) { request in
            Response.json(Array("{\"bytes\":\(request.body.count),\"lang\":\(String(decoding: JSONWriter.bytes(.string(request.query("lang") ?? "")), as: UTF8.self)),\"args\":\(request.query("a999") ?? "-")}".utf8))
        })
        let metrics = self.metrics
        router.add(Route("GET", "/metrics", doc: RouteDoc(summary: "metrics", responses: [200: "text"])) { _ in
            Response.text(metrics.render())
        })
        let started = self.started, release = self.release
        router.add(Route("GET", "/test/block", doc: RouteDoc(summary: "block", responses: [200: "released"], runsOn: .workers)) { _ in
            started.signal()
            _ = release.wait(timeout: .now() + 60)   // bounded: a test that never releases fails instead of hanging the stop
            return Response.json(Array(#"{"released":true}"#.utf8))
        })
        router.add(Route("GET", "/miss", doc: RouteDoc(summary: "moves to the workers", responses: [200: "where it ran"])) { request in
            if request.onEventLoop { throw RunOnWorkers() }
            return Response.json(Array(#"{"ranOn":"workers"}"#.utf8))
        })
        router.add(Route("GET", "/test/thread", doc: RouteDoc(summary: "the loop thread", responses: [200: "its id"])) { _ in
            Response.json(Array("{\"thread\":\(pthread_self())}".utf8))
        })
        for (path, lane) in [("/test/nice", WorkerLane.shared), ("/test/nice-reserved", WorkerLane.reserved)] {
            router.add(Route("GET", path, doc: RouteDoc(summary: "the worker's nice value", responses: [200: "it"], runsOn: .workers, lane: lane)) { _ in
                Response.json(Array("{\"nice\":\(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)),\"process\":\(WireServer.processNice)}".utf8))
            })
        }
        let prepared = PreparedResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8"), ("ETag", "\"p1\"")],
                                        body: Array(#"{"prepared":true}"#.utf8))
        router.add(Route("GET", "/prepared", doc: RouteDoc(summary: "prepared", responses: [200: "cached"])) { _ in
            Response.prebuilt(prepared)
        })
        server = Server(router: router, limits: limits, metrics: metrics, accessLog: try AccessLog(destination: "off"))
        port = try server.start(host: "127.0.0.1", port: 0)
    }

    /// The nice value of the process's main thread (the one the worker threads inherit), from /proc/self/stat.
    static var processNice: Int {
        let stat = (try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8)) ?? ""
        // Field 19 is the nice value; fields after the command's closing parenthesis start at field 3.
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 16 ? Int(fields[16]) ?? 0 : 0
    }

    /// A server with the test limits as changed by `adjust`.
    convenience init(_ adjust: (inout Limits) -> Void) throws {
        var limits = WireServer.testLimits()
        adjust(&limits)
        try self.init(limits: limits)
    }

    static func testLimits() -> Limits {
        var limits = Limits()
        limits.threads = 2
        limits.workerThreads = 2
        return limits
    }

    deinit { server.stop(grace: 0) }

    /// Occupies one worker with `/test/block` (until `release` is signalled) and returns its connection.
    func occupyWorker() throws -> WireConnection {
        let connection = try WireConnection(port: port)
        try connection.send("GET /test/block HTTP/1.1\r\nHost: x\r\n\r\n")
        guard started.wait(timeout: .now() + 30) == .success else { throw HarnessError("/test/block did not start on a worker within 30 s") }
        return connection
    }
}

/// A raw loopback connection, optionally from a chosen source address (any 127.x.y.z works on Linux).
final class WireConnection {
    private(set) var fd: Int32

    init(port: UInt16, from source: String? = nil) throws {
        fd = try connectLoopback(port: port, from: source)
    }

    deinit { if fd >= 0 { close(fd) } }

    /// A connection from `source` whose `GET /healthz` was answered (the status in `status`), then left open: an idle
    /// keep-alive connection.
    static func idle(port: UInt16, from source: String, status: inout Int) throws -> WireConnection {
        let connection = try WireConnection(port: port, from: source)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        status = connection.responses(1).responses.first?.status ?? 0
        return connection
    }

    /// Like `idle(port:from:status:)`, expecting 200.
    static func idle(port: UInt16, from source: String) throws -> WireConnection {
        var status = 0
        let connection = try idle(port: port, from: source, status: &status)
        #expect(status == 200)
        return connection
    }

    /// How long a read waits for a byte before giving up (a read that times out ends `responses` early).
    func setReadTimeout(milliseconds: Int) {
        var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: Int((milliseconds % 1000) * 1000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Closes with a TCP reset (SO_LINGER 0) instead of a FIN. The connection is unusable afterwards.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
        fd = -1
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw HarnessError("send failed") }
            offset += sent
        }
    }

    /// Reads `count` responses (or fewer when the server closes first), each complete by its Content-Length.
    /// `head` marks responses to HEAD requests (no body). Reads in pieces of `chunk` bytes, calling `pause` between.
    /// `after` holds bytes already read (the `rest` of an earlier call).
    func responses(_ count: Int, head: Bool = false, after: [UInt8] = [], chunk: Int = 65536, pause: (() -> Void)? = nil)
        -> (responses: [WireResponse], closed: Bool, rest: [UInt8]) {
        var buffer = after
        var out: [WireResponse] = []
        var closed = false
        var piece = [UInt8](repeating: 0, count: chunk)
        while out.count < count {
            if let (response, used) = WireResponse.parse(buffer, head: head) {
                out.append(response)
                buffer.removeFirst(used)
                continue
            }
            let got = piece.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got <= 0 { closed = true; break }
            buffer += piece[0..<got]
            pause?()
        }
        return (out, closed, buffer)
    }

    /// Reads until the server closes the connection (or 10 s pass without a byte); returns everything read.
    func readToEnd() -> (bytes: [UInt8], closed: Bool) {
        var buffer: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = piece.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got == 0 { return (buffer, true) }
            if got < 0 { return (buffer, errno == ECONNRESET) }
            buffer += piece[0..<got]
        }
    }
}

/// One parsed response: status line, fields, body by Content-Length.
struct WireResponse {
    var statusLine: String
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    var text: String { String(decoding: body, as: UTF8.self) }
    var errorCode: String? {
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        return (object?["error"] as? [String: Any])?["code"] as? String
    }

    /// A complete response at the start of `bytes` and its length, or nil when incomplete.
    static func parse(_ bytes: [UInt8], head: Bool) -> (WireResponse, Int)? {
        guard bytes.count >= 4, let end = (0...(bytes.count - 4)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }) else {
            return nil
        }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        let status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = head || status == 304 || status == 204 ? 0 : (headers.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) } ?? 0)
        guard bytes.count >= end + 4 + length else { return nil }
        return (WireResponse(statusLine: lines[0], status: status, headers: headers, body: Array(bytes[(end + 4)..<(end + 4 + length)])), end + 4 + length)
    }
}

/// Sends `request` on a new connection and reads one response and whether the server then closed the connection.
func exchange(_ port: UInt16, _ request: String) throws -> (response: WireResponse?, closed: Bool, extra: [UInt8]) {
    let connection = try WireConnection(port: port)
    try connection.send(request)
    let (responses, _, rest) = connection.responses(1)
    let (more, closed) = connection.readToEnd()
    return (responses.first, closed, rest + more)
}
