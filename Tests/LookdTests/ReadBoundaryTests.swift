import Testing
@testable import LookdServer

/// Framing must not depend on how TCP splits the bytes (RFC 9112 §2.2: a bare CR is refused; the same bytes get
/// the same answer whatever the reads). Each test makes the engine read a chosen prefix first: a complete request
/// in front of it is answered only after the engine read that whole send, so the next send is a read of its own.
@Suite("HTTP engine: framing independent of read boundaries", .timeLimit(.minutes(10)))
struct ReadBoundaryTests {
    /// Sends `first` (a request to /healthz, then the start of a second request), waits for the /healthz answer,
    /// then sends `second`: the engine reads the two in separate calls. Returns the answers after the first.
    private func splitExchange(_ port: UInt16, _ first: String, _ second: String) throws -> (responses: [WireResponse], closed: Bool) {
        let connection = try WireConnection(port: port)
        connection.setReadTimeout(milliseconds: 5000)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" + first)
        let (health, _, rest) = connection.responses(1)
        #expect(health.first?.status == 200)
        try connection.send(second)
        let (answers, closed, _) = connection.responses(2, after: rest)
        return (answers, closed || connection.readToEnd().closed)
    }

    /// Sends `request` in one send on a new connection; one answer, whether the server closed, and any bytes after.
    private func oneSend(_ port: UInt16, _ request: String) throws -> (response: WireResponse?, closed: Bool, extra: [UInt8]) {
        let connection = try WireConnection(port: port)
        connection.setReadTimeout(milliseconds: 5000)
        try connection.send(request)
        let (responses, _, rest) = connection.responses(1)
        let (more, closed) = connection.readToEnd()
        return (responses.first, closed, rest + more)
    }

    /// `X-A: a\r` then, in the next read, a field that would frame a body if the byte after the CR were dropped.
    @Test(arguments: [
        ("Content-Length: 5\r\n\r\nhello", "ontent-Length"),
        ("XContent-Length: 2\r\n\r\n{}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", "Content-Length"),
    ])
    func aCRWhoseLFWouldArriveInTheNextReadIsStillABareCR(_ rest: String, _ wouldBeField: String) throws {
        let wire = try WireServer()
        let (answers, closed) = try splitExchange(wire.port, "POST /echo HTTP/1.1\r\nHost: x\r\nX-A: a\r", rest)
        #expect(answers.count == 1, "one refusal, nothing after it (a field \(wouldBeField) must not have been read)")
        #expect(answers.first?.status == 400)
        #expect(answers.first?.errorCode == "line_ending_invalid")
        #expect(closed)
    }

    /// The same bytes in one send: refused the same way.
    @Test func theSameBytesInOneSendAreRefusedTheSameWay() throws {
        let wire = try WireServer()
        let (response, closed, extra) = try oneSend(wire.port, "POST /echo HTTP/1.1\r\nHost: x\r\nX-A: a\rXContent-Length: 2\r\n\r\n{}")
        #expect(response?.status == 400)
        #expect(response?.errorCode == "line_ending_invalid")
        #expect(closed)
        #expect(extra.isEmpty)
    }

    /// A CR as the last byte of the engine's first and second reads of a fresh connection (its input buffer starts at
    /// 4 KiB and doubles): one send, no pause.
    @Test(arguments: [4096, 8192])
    func aCRAtTheEndOfAReadBufferIsABareCR(_ crAt: Int) throws {
        let wire = try WireServer()
        let start = "POST /echo HTTP/1.1\r\nHost: x\r\nX-Pad: "
        // Pad so that the CR after "X-A: a" is byte number `crAt` of the send.
        let tail = "\r\nX-A: a\r"
        let padding = String(repeating: "p", count: crAt - start.utf8.count - tail.utf8.count)
        let (response, closed, extra) = try oneSend(wire.port, start + padding + tail + "XContent-Length: 2\r\n\r\n{}")
        #expect(response?.status == 400)
        #expect(response?.errorCode == "line_ending_invalid")
        #expect(closed)
        #expect(extra.isEmpty)
    }

    /// docs/http.md: up to 8 empty lines before a request line are skipped; a ninth is refused.
    @Test func upToEightEmptyLinesBeforeTheRequestLineAreSkipped() throws {
        let wire = try WireServer()
        for count in [1, 5, 8] {
            let (response, _, _) = try oneSend(wire.port, String(repeating: "\r\n", count: count) + "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(response?.status == 200, "\(count) empty lines")
        }
        let (refused, closed, _) = try oneSend(wire.port, String(repeating: "\r\n", count: 9) + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(refused?.status == 400)
        #expect(refused?.errorCode == "request_line_invalid")
        #expect(closed)
    }

    /// Empty lines split across reads count the same: 5 in the first read and 4 in the next is 9, refused.
    @Test func emptyLinesSplitAcrossReadsCountTheSame() throws {
        let wire = try WireServer()
        let (answers, closed) = try splitExchange(wire.port, String(repeating: "\r\n", count: 4) + "\r", "\n" + String(repeating: "\r\n", count: 4) + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(answers.count == 1)
        #expect(answers.first?.errorCode == "request_line_invalid")
        #expect(closed)
    }
}
