import Foundation
import Locking
import Testing
@testable import LookdServer

#if canImport(Glibc)
import Glibc
#endif

/// The engine on the wire: every hostile request of issue 12's probe, framing, keep-alive, pipelining, deadlines,
/// limits and shutdown. In process (WireServer), raw sockets on loopback, bounded loops, no timing assertions.
@Suite("HTTP engine: the wire", .timeLimit(.minutes(10)))
struct WireTests {
    /// One response, one status line, a JSON error body with `code`, and the connection closed.
    private func expectRefusal(_ port: UInt16, _ request: String, status: Int, code: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (response, closed, extra) = try exchange(port, request)
        #expect(response?.status == status, sourceLocation: sourceLocation)
        #expect(response?.errorCode == code, sourceLocation: sourceLocation)
        #expect(response?.header("Content-Type")?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
        #expect(closed, sourceLocation: sourceLocation)
        #expect(extra.isEmpty, "bytes after the response: \(String(decoding: extra, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    @Test func whitespaceBeforeTheColonIsRefusedAndNothingIsSmuggled() throws {
        let wire = try WireServer()
        // The chunked payload would be a second request (GET /healthz) if the head were framed by Content-Length.
        let smuggled = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        let chunk = "0\r\n\r\n" + smuggled
        try expectRefusal(wire.port, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\nContent-Length: 5\r\n\r\n" + chunk,
                          status: 400, code: "field_name_invalid")
        try expectRefusal(wire.port, "GET /healthz HTTP/1.1\r\nHost\t: x\r\n\r\n", status: 400, code: "field_name_invalid")
    }

    @Test(arguments: ["35, 35", "+35", "-1", "0x23", "", "3 5", "35;", "١٢"])
    func contentLengthThatIsNotDigitsIsRefusedWithOneHead(_ value: String) throws {
        let wire = try WireServer()
        try expectRefusal(wire.port, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(value)\r\n\r\n" + String(repeating: "a", count: 35),
                          status: 400, code: "content_length_invalid")
    }

    @Test func differingContentLengthsAndTransferEncodingWithContentLengthAreAmbiguous() throws {
        let wire = try WireServer()
        try expectRefusal(wire.port, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}", status: 400, code: "request_ambiguous")
        try expectRefusal(wire.port, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                          status: 400, code: "request_ambiguous")
        // Equal duplicates are one length.
        let (same, _, _) = try exchange(wire.port, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        #expect(same?.status == 200)
    }

    @Test(arguments: ["xchunked", "gzip", "chunked, identity", "identity", "gzip, chunked"])
    func unknownTransferCodingIsAnsweredAtOnceWith501(_ coding: String) throws {
        let wire = try WireServer()
        try expectRefusal(wire.port, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \(coding)\r\n\r\n", status: 501, code: "transfer_encoding_unsupported")
    }

    @Test func obsoleteLineFoldingAndControlBytesAreRefused() throws {
        let wire = try WireServer()
        try expectRefusal(wire.port, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n 2\r\n\r\n", status: 400, code: "field_folded")
        try expectRefusal(wire.port, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n", status: 400, code: "field_value_invalid")
        try expectRefusal(wire.port, "GET /healthz\u{0}/x HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, code: "target_invalid")
        try expectRefusal(wire.port, "GET /healthz%00/x HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, code: "target_invalid")
        try expectRefusal(wire.port, "GET /healthz?lang=de%00fr HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, code: "target_invalid")
        try expectRefusal(wire.port, "GET /healthz?lang=%zz HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, code: "target_invalid")
        try expectRefusal(wire.port, "GET /healthz HTTP/1.1\nHost: x\n\n", status: 400, code: "line_ending_invalid")
        try expectRefusal(wire.port, "G\"T /healthz HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, code: "request_line_invalid")
    }

    /// The target's and the field values' bytes are checked eight at a time, then one by one: a forbidden byte is
    /// refused at every position of a word and of the tail, and what RFC 9112 allows in a value (a tab, obs-text) is
    /// accepted at every position.
    @Test func aForbiddenByteIsRefusedAndAnAllowedOneAcceptedAtEveryPositionOfAWord() throws {
        let wire = try WireServer()
        let target = "/healthz?q=" + String(repeating: "a", count: 16), value = String(repeating: "b", count: 20)
        for position in 1..<target.count {
            for byte in ["\u{01}", "\u{1F}", "\u{7F}", "é"] {
                var bad = Array(target)
                bad[position] = Character(byte)
                try expectRefusal(wire.port, "GET \(String(bad)) HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, code: "target_invalid")
            }
        }
        for position in 0..<value.count {
            for byte in ["\u{01}", "\u{1F}", "\u{7F}"] {
                var bad = Array(value)
                bad[position] = Character(byte)
                try expectRefusal(wire.port, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: \(String(bad))\r\n\r\n", status: 400, code: "field_value_invalid")
            }
            for byte in ["\t", "é"] {
                var allowed = Array(value)
                allowed[position] = Character(byte)
                let (response, _, _) = try exchange(wire.port, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: \(String(allowed))\r\nConnection: close\r\n\r\n")
                #expect(response?.status == 200, "\(byte.unicodeScalars.first!.value) at \(position)")
            }
        }
    }

    @Test func hostIsRequiredOnceInHTTP11() throws {
        let wire = try WireServer()
        try expectRefusal(wire.port, "GET /healthz HTTP/1.1\r\n\r\n", status: 400, code: "host_missing")
        try expectRefusal(wire.port, "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400, code: "host_invalid")
        // HTTP/1.0 has no Host requirement and closes after the response unless it asks for keep-alive.
        let (old, closed, _) = try exchange(wire.port, "GET /healthz HTTP/1.0\r\n\r\n")
        #expect(old?.status == 200)
        #expect(closed)
    }

    @Test func versionsAndTargetForms() throws {
        let wire = try WireServer()
        let (minor, _, _) = try exchange(wire.port, "GET /healthz HTTP/1.2\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(minor?.status == 200)
        #expect(minor?.statusLine.hasPrefix("HTTP/1.1 ") == true)
        try expectRefusal(wire.port, "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", status: 505, code: "version_unsupported")
        try expectRefusal(wire.port, "GET /healthz HTTP/1.1x\r\nHost: x\r\n\r\n", status: 400, code: "request_line_invalid")
        let (absolute, _, _) = try exchange(wire.port, "GET http://example.com/healthz HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
        #expect(absolute?.status == 200)
        let (query, _, _) = try exchange(wire.port, "POST HTTPS://example.com/echo?lang=de HTTP/1.1\r\nHost: example.com\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(query?.text.contains("\"lang\":\"de\"") == true)
        try expectRefusal(wire.port, "GET * HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, code: "target_invalid")
        try expectRefusal(wire.port, "GET ftp://x/healthz HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, code: "target_invalid")
        // The path is percent-decoded (RFC 3986 §2.1: %74 is "t", %6F "o"); a fragment or a cut escape is refused.
        let (escaped, _, _) = try exchange(wire.port, "GET /heal%74hz?x=%41 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(escaped?.status == 200)
        let (echoed, _, _) = try exchange(wire.port, "POST /ech%6F?lang=%41 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(echoed?.status == 200)
        try expectRefusal(wire.port, "GET /healthz#top HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, code: "target_invalid")
        try expectRefusal(wire.port, "GET /healthz%7 HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, code: "target_invalid")
        let (options, _, _) = try exchange(wire.port, "OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(options?.status == 204)
    }

    @Test func aThousandQueryArgumentsWithinTheLimitAreServed() throws {
        let wire = try WireServer()
        let query = (0..<1000).map { "a\($0)=\($0)" }.joined(separator: "&")
        #expect(query.utf8.count < 12_000)
        let roomy = try WireServer { $0.maxURIBytes = 16_384 }
        let (response, _, _) = try exchange(roomy.port, "POST /echo?\(query) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(response?.status == 200)
        #expect(response?.text.contains("\"args\":999") == true)
        // ~900 short arguments inside the default 4,096-byte limit.
        let short = (0..<900).map { _ in "a" }.joined(separator: "&")
        let (served, _, _) = try exchange(wire.port, "GET /healthz?\(short) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(served?.status == 200)
    }

    @Test func targetAndHeaderLimitsAreJSON() throws {
        let wire = try WireServer()
        try expectRefusal(wire.port, "GET /healthz?\(String(repeating: "a", count: 5000)) HTTP/1.1\r\nHost: x\r\n\r\n", status: 414, code: "uri_too_long")
        let many = (0..<765).map { "X-\($0): 1\r\n" }.joined()
        try expectRefusal(wire.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\(many)\r\n", status: 431, code: "headers_too_large")
        try expectRefusal(wire.port, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: \(String(repeating: "b", count: 20_000))\r\n\r\n", status: 431, code: "headers_too_large")
    }

    /// docs/http.md: `--max-header-bytes` (16 KiB by default) counts the field lines with their CRLFs: 16,384 bytes of
    /// them are read, 16,385 are refused with 431, whether the line that crosses the limit is the last or one before it.
    @Test func headerBytesAreCountedToTheLastByte() throws {
        let wire = try WireServer()
        // "Host: x\r\n" 9 bytes, "X-Pad: <n bytes>\r\n" n + 9, "X-B: c\r\n" 8, "Connection: close\r\n" 19.
        for (padding, middle) in [(16_384 - 37, ""), (16_384 - 45, "X-B: c\r\n")] {
            let request = { (n: Int) in
                "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: \(String(repeating: "b", count: n))\r\n\(middle)Connection: close\r\n\r\n"
            }
            let (served, _, _) = try exchange(wire.port, request(padding))
            #expect(served?.status == 200, "\(padding) bytes of padding")
            try expectRefusal(wire.port, request(padding + 1), status: 431, code: "headers_too_large")
        }
    }

    @Test func keepAliveAndPipeliningAnswerInOrder() throws {
        let wire = try WireServer()
        let connection = try WireConnection(port: wire.port)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = connection.responses(1)
        #expect(first.responses.first?.status == 200)
        #expect(!first.closed)
        // Fast (loop), slow (workers) and unknown requests in one write: answered in the order sent.
        try connection.send("GET /large?bytes=3 HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\nPOST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcdGET /nope HTTP/1.1\r\nHost: x\r\n\r\nGET /prepared HTTP/1.1\r\nHost: x\r\n\r\n")
        let piped = connection.responses(5)
        #expect(piped.responses.map(\.status) == [200, 200, 200, 404, 200])
        #expect(piped.responses.first?.text == "xxx")
        #expect(piped.responses[2].text.contains("\"bytes\":4"))
        #expect(piped.responses[4].text == #"{"prepared":true}"#)
        #expect(piped.responses[4].header("ETag") == "\"p1\"")
        let ids = Set(piped.responses.compactMap { $0.header("X-Request-Id") })
        #expect(ids.count == 5)
        // HTTP/1.0 with keep-alive stays open and says so.
        try connection.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let old = connection.responses(1)
        #expect(old.responses.first?.header("Connection")?.lowercased() == "keep-alive")
        try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let last = connection.responses(1)
        #expect(last.responses.first?.header("Connection") == "close")
        #expect(connection.readToEnd().closed)
    }

    /// Each loop counts its own request ids (no counter shared between loops): ids stay unique across the server.
    @Test func requestIDsAreUniqueAcrossLoops() throws {
        let wire = try WireServer()
        var threads = Set<String>(), ids: [String] = []
        var connections: [WireConnection] = []
        // The kernel spreads connections over the loops' listening sockets by their addresses: 32 connections reach
        // both of two loops unless it put every one on the same loop (odds 2^-31).
        for _ in 0..<32 {
            let connection = try WireConnection(port: wire.port)
            try connection.send("GET /test/thread HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let answers = connection.responses(3).responses
            #expect(answers.count == 3)
            if let thread = answers.first?.text { threads.insert(thread) }
            ids += answers.compactMap { $0.header("X-Request-Id") }
            connections.append(connection)
        }
        #expect(threads.count == 2)
        #expect(ids.count == 96)
        #expect(Set(ids).count == ids.count)
    }

    @Test func aLoopRouteCanMoveARequestToTheWorkersInOrder() throws {
        let wire = try WireServer()
        let connection = try WireConnection(port: wire.port)
        try connection.send("GET /miss HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /miss HTTP/1.1\r\nHost: x\r\n\r\n")
        let answers = connection.responses(3).responses
        #expect(answers.map(\.text) == [#"{"ranOn":"workers"}"#, #"{"status":"ok"}"#, #"{"ranOn":"workers"}"#])
    }

    @Test func headAnswersTheHeadOnly() throws {
        let wire = try WireServer()
        let connection = try WireConnection(port: wire.port)
        try connection.send("HEAD /prepared HTTP/1.1\r\nHost: x\r\n\r\nHEAD /large?bytes=100 HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let heads = connection.responses(2, head: true)
        #expect(heads.responses.map { $0.header("Content-Length") } == ["17", "100"])
        // The third response follows at once: no body bytes were sent for the HEADs.
        let after = connection.responses(1, after: heads.rest)
        #expect(after.responses.first?.statusLine.hasPrefix("HTTP/1.1 200") == true)
        #expect(after.responses.first?.text == #"{"status":"ok"}"#)
    }

    @Test func aLargeBodyArrivingAfterItsHeadIsReadWhole() throws {
        let wire = try WireServer()
        let connection = try WireConnection(port: wire.port)
        let body = [UInt8](repeating: UInt8(ascii: "b"), count: 300_000)
        try connection.send("POST /echo?lang=fr HTTP/1.1\r\nHost: x\r\nX-Padding: \(String(repeating: "p", count: 3000))\r\nContent-Length: \(body.count)\r\n\r\n")
        #expect(eventually(within: 30) { wire.server.inflight == 1 }, "the head was never read")   // the body arrives after it
        try connection.send(Array(body[..<1000]))
        usleep(50_000)   // pacing, not synchronisation: the rest likely arrives in a later read; the answer is the same either way
        try connection.send(Array(body[1000...]))
        let answer = connection.responses(1)
        #expect(answer.responses.first?.status == 200)
        #expect(answer.responses.first?.text == #"{"bytes":300000,"lang":"fr","args":-}"#)
    }

    @Test func expectContinueGetsAnInterimAnswerBeforeTheBodyIsSent() throws {
        let wire = try WireServer()
        let connection = try WireConnection(port: wire.port)
        try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
        let interim = connection.responses(1)
        #expect(interim.responses.first?.status == 100)
        try connection.send("abc")
        let final = connection.responses(1, after: interim.rest)
        #expect(final.responses.first?.text.contains("\"bytes\":3") == true)
    }

    @Test func chunkedBodiesAreDecodedStrictly() throws {
        let wire = try WireServer()
        let connection = try WireConnection(port: wire.port)
        try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4;name=value\r\nabcd\r\nA\r\n0123456789\r\n0\r\nX-Trailer: yes\r\n\r\n")
        let answer = connection.responses(1)
        #expect(answer.responses.first?.text.contains("\"bytes\":14") == true)
        try expectRefusal(wire.port, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabcd\r\n0\r\n\r\n", status: 400, code: "chunked_invalid")
        try expectRefusal(wire.port, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcdef\r\n0\r\n\r\n", status: 400, code: "chunked_invalid")
        try expectRefusal(wire.port, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1;\(String(repeating: "e", count: 300))\r\na\r\n0\r\n\r\n",
                          status: 400, code: "chunked_invalid")
        try expectRefusal(wire.port, "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400, code: "transfer_encoding_invalid")
        let small = try WireServer { $0.maxBodyBytes = 2048 }
        let chunk = String(repeating: "c", count: 1000)
        try expectRefusal(small.port, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "3e8\r\n\(chunk)\r\n", count: 4) + "0\r\n\r\n",
                          status: 413, code: "body_too_large")
        try expectRefusal(small.port, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n" + String(repeating: "d", count: 5000),
                          status: 413, code: "body_too_large")
    }

    @Test func aSlowReaderOfALargeResponseGetsItAllWhileWorkersAreBusy() throws {
        let wire = try WireServer { $0.writeTimeoutSeconds = 3; $0.idleTimeoutSeconds = 1 }
        // One worker held by a blocked request; the large response is built by the other and written by the loop.
        let blocker = try wire.occupyWorker()
        let reader = try WireConnection(port: wire.port)
        let size = 10 * 1024 * 1024
        try reader.send("GET /large?bytes=\(size) HTTP/1.1\r\nHost: x\r\n\r\n")
        var pieces = 0
        let answer = reader.responses(1, chunk: 256 * 1024) {
            pieces += 1
            if pieces % 8 == 0 { usleep(250_000) }   // pauses add up past the write deadline; each is shorter
        }
        #expect(answer.responses.first?.status == 200)
        #expect(answer.responses.first?.body.count == size)
        wire.release.signal()
        #expect(blocker.responses(1).responses.first?.status == 200)
    }

    @Test func aReaderThatStopsReadingIsClosedNotLeftHanging() throws {
        let wire = try WireServer { $0.writeTimeoutSeconds = 1 }
        let reader = try WireConnection(port: wire.port)
        var small: Int32 = 4096
        setsockopt(reader.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let size = 10 * 1024 * 1024
        try reader.send("GET /large?bytes=\(size) HTTP/1.1\r\nHost: x\r\n\r\n")
        // The reader reads nothing until the server has given up on it (write deadline 1 s) and closed the connection.
        #expect(eventually(within: 30) { wire.server.openConnections == 0 }, "the stalled connection was never closed")
        let (bytes, closed) = reader.readToEnd()
        #expect(closed)
        #expect(bytes.count < size)
    }

    @Test func fastRoutesAreAnsweredWhileTheWorkerPoolIsFullAndOverflowIs503() throws {
        let wire = try WireServer { $0.workerThreads = 1; $0.workerQueue = 1 }
        let running = try wire.occupyWorker()
        // Further slow requests fill the queue (1); the first one beyond it is answered 503 at once.
        var queued: [WireConnection] = []
        var overflow: WireResponse?
        for _ in 0..<10 where overflow == nil {
            let extra = try WireConnection(port: wire.port)
            extra.setReadTimeout(milliseconds: 1000)
            try extra.send("GET /test/block HTTP/1.1\r\nHost: x\r\n\r\n")
            if let answer = extra.responses(1).responses.first { overflow = answer } else { queued.append(extra) }
        }
        #expect(overflow?.status == 503)
        #expect(overflow?.errorCode == "overloaded")
        #expect(overflow?.header("Retry-After") == "1")
        let health = try WireConnection(port: wire.port)
        try health.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(health.responses(1).responses.first?.status == 200)
        #expect(queued.count == 1)
        for _ in 0...queued.count { wire.release.signal() }
        #expect(running.responses(1).responses.first?.status == 200)
        for connection in queued {
            connection.setReadTimeout(milliseconds: 10_000)
            #expect(connection.responses(1).responses.first?.status == 200)
        }
    }

    @Test func aClientThatResetsWhileItsRequestIsOnAWorkerLeavesTheServerWhole() throws {
        let wire = try WireServer()
        for _ in 0..<20 {
            let leaving = try wire.occupyWorker()
            leaving.reset()
            let other = try WireConnection(port: wire.port)
            try other.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            wire.release.signal()
            #expect(other.responses(1).responses.first?.status == 200)
        }
        let last = try WireConnection(port: wire.port)
        try last.send("GET /large?bytes=5 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(last.responses(1).responses.first?.text == "xxxxx")
    }

    @Test func aHeadTrickledSlowerThanTheHeadDeadlineGets408() throws {
        let wire = try WireServer { $0.headTimeoutSeconds = 1 }
        let connection = try WireConnection(port: wire.port)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
        var answer: (responses: [WireResponse], closed: Bool, rest: [UInt8]) = ([], false, [])
        // One header byte every 100 ms keeps an idle-only timeout from ever firing; the head deadline still does.
        for index in 0..<100 {
            if (try? connection.send("X-Slow-\(index): 1\r\n")) == nil { break }
            usleep(100_000)
            var pending: Int32 = 0
            _ = ioctl(connection.fd, UInt(FIONREAD), &pending)
            if pending > 0 { break }
        }
        answer = connection.responses(1)
        #expect(answer.responses.first?.status == 408)
        #expect(answer.responses.first?.errorCode == "request_timeout")
        #expect(connection.readToEnd().closed)
    }

    @Test func aThousandConnectionsAreServed() throws {
        let wire = try WireServer { $0.maxConnections = 2000; $0.maxConnectionsPerIP = 2000 }
        var connections: [WireConnection] = []
        for _ in 0..<1000 { connections.append(try WireConnection(port: wire.port)) }
        for connection in connections { try connection.send("GET /prepared HTTP/1.1\r\nHost: x\r\n\r\n") }
        var served = 0
        for connection in connections where connection.responses(1).responses.first?.status == 200 { served += 1 }
        #expect(served == 1000)
    }

    @Test func aFullTableMakesRoomForAFreshAddressByEvictingTheLongestIdle() throws {
        let wire = try WireServer { $0.maxConnections = 64; $0.maxConnectionsPerIP = 8; $0.connectionsForNewAddresses = 0 }
        // 8 addresses × 8 idle keep-alive connections fill the table.
        var idle: [WireConnection] = []
        for host in 2...9 {
            for _ in 0..<8 { idle.append(try WireConnection.idle(port: wire.port, from: "127.0.0.\(host)")) }
        }
        // A ninth connection from a full address is refused with JSON.
        let greedy = try WireConnection(port: wire.port, from: "127.0.0.2")
        try greedy.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let refused = greedy.responses(1)
        #expect(refused.responses.first?.status == 503)
        #expect(refused.responses.first?.errorCode == "too_many_connections")
        // A fresh address is served.
        for fresh in 20..<24 {
            let newcomer = try WireConnection(port: wire.port, from: "127.0.0.\(fresh)")
            try newcomer.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(newcomer.responses(1).responses.first?.status == 200)
        }
        withExtendedLifetime(idle) {}
    }

    @Test func inventedMethodsShareOneMetricsSeries() throws {
        let wire = try WireServer()
        for index in 0..<50 {
            let (response, _, _) = try exchange(wire.port, "M\(index)X /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(response?.status == 405)
        }
        let connection = try WireConnection(port: wire.port)
        try connection.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        let page = connection.responses(1).responses.first?.text ?? ""
        #expect(page.contains("method=\"other\",route=\"/healthz\",status=\"405\"} 50"))
        #expect(!page.contains("M1X"))
    }

    @Test func theOpenConnectionsGaugeFollowsTheEngine() throws {
        let wire = try WireServer()
        func gauge(_ connection: WireConnection) throws -> String? {
            try connection.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            let page = connection.responses(1).responses.first?.text ?? ""
            return page.split(separator: "\n").first { $0.hasPrefix("lookd_open_connections ") }.map(String.init)
        }
        var held: [WireConnection] = []
        for _ in 0..<3 {
            let connection = try WireConnection(port: wire.port)
            try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(connection.responses(1).responses.first?.status == 200)
            held.append(connection)
        }
        let observer = try WireConnection(port: wire.port)
        #expect(try gauge(observer) == "lookd_open_connections 4")
        held.removeAll()   // closes the three
        var last: String?
        for _ in 0..<100 {
            last = try gauge(observer)
            if last == "lookd_open_connections 1" { break }
            usleep(20_000)
        }
        #expect(last == "lookd_open_connections 1")
    }

    @Test func stopLetsARequestInProgressFinishAndRefusesNewConnections() throws {
        let wire = try WireServer()
        let connection = try WireConnection(port: wire.port)
        try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        try #require(eventually(within: 30) { wire.server.inflight == 1 }, "the POST's head was never read")
        let idle = try WireConnection(port: wire.port)
        try idle.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(idle.responses(1).responses.first?.status == 200)
        // Only the POST is in progress now (the idle connection's answer is written); both connections are open.
        try #require(eventually(within: 30) { wire.server.inflight == 1 && wire.server.openConnections == 2 })
        let stopped = DispatchSemaphore(value: 0)
        let unfinished = LockedValue(-1)
        let server = wire.server
        Thread.detachNewThread {
            unfinished.withLock { $0 = server.stop(grace: 10) }
            stopped.signal()
        }
        #expect(idle.readToEnd().closed)       // the idle keep-alive connection is closed at once
        var refused = false
        for _ in 0..<100 where !refused {
            if (try? WireConnection(port: wire.port)) == nil { refused = true } else { usleep(20_000) }
        }
        #expect(refused)                        // no listener any more
        try connection.send("defghij")
        let answer = connection.responses(1)
        #expect(answer.responses.first?.status == 200)
        #expect(answer.responses.first?.header("Connection") == "close")
        stopped.wait()
        #expect(unfinished.withLock { $0 } == 0)
    }
}
