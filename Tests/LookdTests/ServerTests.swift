import Foundation
import Testing
import TestPrograms

@Suite("HTTP server: health, errors, limits, smuggling, shutdown", .timeLimit(.minutes(10)))
struct ServerTests {
    @Test func healthReadyAndMetrics() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        let health = try daemon.get("/healthz")
        #expect(health.status == 200)
        #expect(health.json["status"] as? String == "ok")
        #expect(health.header("X-Request-Id")?.isEmpty == false)
        let ready = try daemon.get("/readyz")
        #expect(ready.status == 200)
        #expect(ready.json["status"] as? String == "ready")
        _ = try daemon.get("/no/such/route")
        let metrics = try daemon.get("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
        #expect(metrics.text.contains("lookd_http_requests_total{method=\"GET\",route=\"/healthz\",status=\"200\"} 1"))
        #expect(metrics.text.contains("lookd_http_requests_total{method=\"GET\",route=\"unmatched\",status=\"404\"} 1"))
        #expect(metrics.text.contains("lookd_http_request_duration_seconds_bucket{le=\"+Inf\"}"))
        #expect(metrics.text.contains("lookd_open_connections "))
        #expect(metrics.text.contains("lookd_store_errors_total 0"))
        #expect(metrics.text.contains("lookd_look_cache_hits_total"))
    }

    @Test func unknownRouteAndWrongMethodAreJSONErrors() throws {
        let daemon = try InProcessApp()
        let missing = try daemon.get("/v2/nothing")
        #expect(missing.status == 404)
        #expect(missing.errorCode == "route_unknown")
        let wrong = try daemon.request("DELETE", "/healthz")
        #expect(wrong.status == 405)
        #expect(wrong.errorCode == "method_not_allowed")
        #expect(wrong.header("Allow")?.contains("GET") == true)
    }

    @Test func accessLogHasOneJSONLinePerRequestWithoutSecrets() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        let key = try newAppKey()
        _ = try daemon.get("/healthz")
        _ = try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(["corners": "soft"]), admin: true)
        #expect(daemon.stop() == 0)
        let log = try String(contentsOfFile: directory.path + "/data-logs/access.log", encoding: .utf8)
        let lines = log.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for field in ["time", "method", "route", "status", "bytes", "duration_ms", "request_id"] {
                #expect(object[field] != nil, "missing \(field)")
            }
        }
        #expect(!log.contains(adminToken))
        #expect(!log.contains(key))
        #expect(!log.contains("soft"))
        #expect(log.contains("\"route\":\"/v1/apps/{appKey}/look\""))
    }

    @Test func tenMegabyteBodyIsRefusedAndTheDaemonStaysUp() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        let big = [UInt8](repeating: UInt8(ascii: " "), count: 10 * 1024 * 1024)
        let refused = try daemon.request("POST", "/v1/looks/resolve", body: big)
        #expect(refused.status == 413)
        #expect(refused.errorCode == "body_too_large")
        #expect(try daemon.get("/healthz").status == 200)
    }

    @Test func chunkedBodyOverTheLimitIsRefused() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data", arguments: ["--max-body", "2048"])
        let chunk = String(repeating: " ", count: 1000)
        var request = "POST /v1/looks/resolve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        for _ in 0..<4 { request += "3e8\r\n\(chunk)\r\n" }
        request += "0\r\n\r\n"
        let refused = try HTTPClient.raw(port: daemon.port, Array(request.utf8))
        #expect(refused.status == 413)
        #expect(refused.errorCode == "body_too_large")
    }

    @Test func longTargetAndLargeHeadersAreRefused() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        let long = try daemon.get("/healthz?pad=" + String(repeating: "a", count: 5000))
        #expect(long.status == 414)
        #expect(long.errorCode == "uri_too_long")
        let headers = try daemon.get("/healthz", headers: [("X-Pad", String(repeating: "b", count: 20_000))])
        #expect(headers.status == 431)
        #expect(headers.errorCode == "headers_too_large")
        #expect(try daemon.get("/healthz").status == 200)
    }

    @Test func deepJSONAndLongStringsAreRefused() throws {
        let daemon = try InProcessApp()
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let nested = try daemon.request("POST", "/v1/looks/resolve", body: Array(deep.utf8))
        #expect(nested.status == 400)
        #expect(nested.errorCode == "limit_exceeded")
        let long = try daemon.request("POST", "/v1/looks/resolve", body: json(["dashboard": ["appName": String(repeating: "x", count: 10_000)]]))
        #expect(long.status == 400)
        #expect(long.errorCode == "limit_exceeded")
    }

    @Test func lintBodyOverItsLimitIsRefused() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        // Catalog texts may be long (a whole file) but the lint body has its own limit.
        let big = String(repeating: " ", count: 9 << 20)
        let body = json(["catalogs": [["name": "en.json", "text": big]]])
        #expect(try daemon.request("POST", "/v1/lint", body: body).status == 413)
    }

    /// Framing two readers could read differently (RFC 9112 §6.3): conflicting Content-Lengths, and Transfer-Encoding
    /// with Content-Length.
    @Test(arguments: [
        "Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
        "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    ])
    func ambiguousFramingIsRefusedAndClosed(framing: String) throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        let request = "POST /v1/looks/resolve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + framing
        let answer = try HTTPClient.raw(port: daemon.port, Array(request.utf8))
        #expect(answer.status == 400)
        #expect(answer.errorCode == "request_ambiguous")
        #expect(answer.closed)
    }

    @Test func dotSegmentsInThePathAreRefused() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        let answer = try daemon.get("/v1/apps/../../etc/passwd")
        #expect(answer.status == 400)
        #expect(answer.errorCode == "path_invalid")
    }

    @Test func sigtermFinishesAndExitsZero() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        #expect(try daemon.get("/healthz").status == 200)
        // An idle keep-alive connection does not hold the daemon up; it is closed.
        let idle = try RawConnection(port: daemon.port)
        try idle.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try idle.readResponse().status == 200)
        #expect(daemon.stop(SIGTERM) == 0)
        #expect(try idle.readResponse().status == 0)     // end of stream, nothing more
        #expect(daemon.log.contains("stopped"))
        let again = try Daemon(data: directory.path + "/data")
        #expect(again.stop(SIGINT) == 0)
    }

    @Test func sighupAndSigusr1AreLoggedAndIgnored() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        for signal in [SIGHUP, SIGUSR1, SIGHUP] {
            daemon.process.send(signal)
            #expect(try daemon.get("/healthz").status == 200)
        }
        #expect(daemon.process.isRunning)
        #expect(daemon.stop(SIGTERM) == 0)
        #expect(daemon.log.contains("SIGHUP"))
        #expect(daemon.log.contains("SIGUSR1"))
    }

    @Test func sigtermLetsAnInFlightRequestFinish() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        let body = Array(##"{"dashboard":{"accent":"#FF2D55"}}"##.utf8)
        let head = "POST /v1/looks/resolve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        let connection = try RawConnection(port: daemon.port)
        try connection.send(Array(head.utf8) + body.prefix(10))
        // The request is in flight once the daemon has read its head: the gauge then counts it and the /metrics request.
        let held = try eventually(within: 30) { try inflightRequests(daemon) >= 2 }
        try #require(held, "the daemon never read the request's head")
        daemon.process.send(SIGTERM)
        // Draining: new connections are refused at once, while the daemon waits for the request in flight.
        #expect(eventually(within: 30) { (try? HTTPClient.send(port: daemon.port, method: "GET", target: "/healthz", headers: [], body: nil)) == nil })
        #expect(daemon.process.isRunning)                 // waiting for the request, not gone
        try connection.send(Array(body.dropFirst(10)))
        let answer = try connection.readResponse()
        #expect(answer.status == 200)
        #expect(daemon.process.wait(within: 60) == .exited(0))
    }

    @Test func connectionsPerAddressAreBounded() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data", arguments: ["--max-connections-per-ip", "2"])
        // Two keep-alive connections, each answered and held open (a connection is accepted once its first bytes
        // arrive, so a client that never sends is not counted until the kernel hands it over, after about a second).
        var held: [RawConnection] = []
        for _ in 0..<2 {
            let connection = try RawConnection(port: daemon.port)
            try connection.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(try connection.readResponse().status == 200)
            held.append(connection)
        }
        let third = try RawConnection(port: daemon.port)
        try third.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let refused = try third.readResponse()
        #expect(refused.status == 503)                     // a JSON refusal, then closed
        #expect(refused.text.contains("too_many_connections"))
        withExtendedLifetime(held) {}
    }

    @Test func secondDaemonOnTheSameDataDirectoryIsRefused() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        let (status, _, error) = try runLookd(["serve", "--listen", "127.0.0.1:0", "--data", directory.path + "/data"])
        #expect(status == 2)
        #expect(error.contains("another lookd"))
        #expect(try daemon.get("/healthz").status == 200)
    }

    @Test func openAPIDescribesEveryStatusTheRoutesAnswer() throws {
        let daemon = try InProcessApp()
        let key = newKey()
        #expect(try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json([:]), admin: true).status == 201)
        let document = try daemon.get("/openapi.json")
        #expect(document.status == 200)
        #expect(document.json["openapi"] as? String == "3.1.0")
        let paths = try #require(document.json["paths"] as? [String: [String: Any]])
        for expected in ["/healthz", "/readyz", "/metrics", "/openapi.json", "/v1/looks/resolve", "/v1/apps/{appKey}/look",
                         "/v1/apps/{appKey}/look/history", "/v1/apps/{appKey}/look/rollback"] {
            #expect(paths[expected] != nil, "\(expected) is not described")
        }
        var checked = 0
        for (path, operations) in paths {
            for (method, value) in operations {
                let operation = try #require(value as? [String: Any])
                let responses = try #require(operation["responses"] as? [String: Any])
                let target = path.replacingOccurrences(of: "{appKey}", with: key)
                // Each operation twice: as a plain call (with admin rights where needed) and with a malformed key.
                let plain = try daemon.request(method.uppercased(), target, body: method == "get" ? nil : json([:]),
                                               admin: operation["security"] != nil)
                #expect(responses[String(plain.status)] != nil, "\(method) \(path) answered \(plain.status), not described")
                if plain.status >= 400 { #expect(plain.errorCode != nil, "\(method) \(path): error without a code") }
                if path.contains("{appKey}") {
                    let bad = try daemon.request(method.uppercased(), path.replacingOccurrences(of: "{appKey}", with: "pk_live_nope"),
                                                 body: method == "get" ? nil : json([:]), admin: true)
                    #expect(bad.status == 400 && responses["400"] != nil, "\(method) \(path) with a bad key: \(bad.status)")
                }
                checked += 1
            }
        }
        #expect(checked == paths.values.reduce(0) { $0 + $1.count })
        #expect(checked >= 8)
    }
}

/// The daemon's `lookd_inflight_requests` gauge (requests whose head was read and whose answer is not yet written,
/// the /metrics request that reads it included).
private func inflightRequests(_ daemon: Daemon) throws -> Int {
    let page = try daemon.get("/metrics").text
    let line = page.split(separator: "\n").first { $0.hasPrefix("lookd_inflight_requests ") }
    return line.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
}
