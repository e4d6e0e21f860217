import Foundation
@testable import LookdServer
import Testing

/// Request durations are measured from the arrival of the request's bytes (the kernel's receive timestamp), so the
/// histogram and the access log show the time a request waited for a busy loop, whoever answers it: a route, or the
/// engine's response cache.
@Suite("Honest latency: durations from the request's arrival", .timeLimit(.minutes(10)))
struct HonestLatencyTests {
    @Test func aRequestThatWaitedForABusyLoopIsCountedWithItsWaitOnBothPaths() throws {
        let directory = try TemporaryDirectory()
        let logPath = directory.path + "/access.log"
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        var router = Router()
        // Runs on the loop and holds it until released: every request behind it waits in its socket.
        router.add(Route("GET", "/hold", doc: RouteDoc(summary: "hold", responses: [200: "released"], runsOn: .loop)) { _ in
            entered.signal()
            release.wait()
            return Response.json(Array(#"{"held":true}"#.utf8))
        })
        router.add(Route("GET", "/fast", doc: RouteDoc(summary: "fast", responses: [200: "ok"], runsOn: .loop)) { _ in
            Response.json(Array(#"{"fast":true}"#.utf8))
        })
        let metrics = Metrics()
        let cache = EngineResponseCache(capacityBytes: 1 << 20, labels: ["/cached"], bounds: Metrics.buckets)
        metrics.fold(cache)
        let ok = PreparedResponse(status: 200, headers: [("ETag", "\"c1\"")], body: Array(#"{"cached":true}"#.utf8))
        let notModified = PreparedResponse(status: 304, headers: [("ETag", "\"c1\"")], body: [])
        #expect(cache.put(generation: cache.generation, target: "/cached", tag: "t", etag: "\"c1\"", label: 0, ok: ok.wire, notModified: notModified.wire))
        var limits = Limits()
        limits.threads = 1
        limits.workerThreads = 1
        let server = Server(router: router, limits: limits, metrics: metrics, accessLog: try AccessLog(destination: logPath), responseCache: cache)
        let port = try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop(grace: 0) }

        let holder = try WireConnection(port: port)
        try holder.send("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
        entered.wait()
        // Both requests are in their sockets while the only loop is held.
        let routed = try WireConnection(port: port), cached = try WireConnection(port: port)
        try routed.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        try cached.send("GET /cached HTTP/1.1\r\nHost: x\r\n\r\n")
        let sent = monotonicSeconds()
        // The wait to be measured (not a synchronisation: the loop is held until the release below either way).
        let held = 0.06
        while monotonicSeconds() - sent < held { usleep(5_000) }
        release.signal()
        for connection in [holder, routed, cached] {
            let answers = connection.responses(1).responses
            #expect(answers.first?.status == 200)
        }

        // The log lines are written before the responses are: each path's request shows at least the time it was held.
        let lines = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n")
        func duration(_ route: String) throws -> Double {
            let line = try #require(lines.first { $0.contains("\"route\":\"\(route)\"") }, "a log line for \(route)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require((object["duration_ms"] as? NSNumber)?.doubleValue)
        }
        // The bound is exact up to the clocks' conversion (microseconds): the bytes arrived before `sent`, and the
        // answers were queued after the release.
        #expect(try duration("/fast") >= held * 1000 - 1)
        #expect(try duration("/cached") >= held * 1000 - 1)
        #expect(cache.stats.counts.first?.count == 1, "the engine's response cache answered /cached")

        // In the histogram too: none of the three requests is in a bucket at or below 25 ms.
        let text = metrics.render()
        #expect(text.contains("lookd_http_request_duration_seconds_bucket{le=\"0.025\"} 0\n"))
        #expect(text.contains("lookd_http_request_duration_seconds_count 3\n"))
    }
}
