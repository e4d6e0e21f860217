import Foundation
import Testing
@testable import LookdServer

#if canImport(Glibc)
import Glibc
#endif

/// Issue 27, rows 9 and 11: no answer to HEAD carries a body, the engine's own refusals included (RFC 9110
/// §9.3.2), and a Host field must be a host and an optional port (RFC 9112 §3.2, RFC 3986 §3.2.2).
@Suite("HTTP engine: HEAD refusals without a body, Host syntax", .timeLimit(.minutes(10)))
struct HeadAndHostTests {
    /// Sends `request` on a new connection (from `source`), reads until the server closes (at most 10 s without a
    /// byte), and returns the status and the bytes after the head.
    static func rawAnswer(_ port: UInt16, _ request: String, from source: String? = nil) throws -> (status: Int, afterHead: [UInt8]) {
        let connection = try WireConnection(port: port, from: source)
        connection.setReadTimeout(milliseconds: 10_000)
        try connection.send(request)
        let (bytes, _) = connection.readToEnd()
        guard let end = bytes.indices.dropLast(3).first(where: { Array(bytes[$0..<($0 + 4)]) == [13, 10, 13, 10] }) else {
            Issue.record("no complete head in \(String(decoding: bytes, as: UTF8.self))")
            return (0, [])
        }
        let statusLine = String(decoding: bytes[..<end], as: UTF8.self).prefix(while: { $0 != "\r" })
        let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, Array(bytes[(end + 4)...]))
    }

    @Test("431, 400 and 414 made before the head is parsed: a body for GET, none for HEAD")
    func refusalsBeforeTheParseHaveNoBodyForHead() throws {
        let wire = try WireServer()
        let pad = String(repeating: "b", count: 20_000)
        let target = String(repeating: "a", count: 20_000)
        let cases: [(status: Int, request: (String) -> String)] = [
            (431, { "\($0) /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: \(pad)\r\n\r\n" }),
            (400, { "\($0) /healthz HTTP/1.1\r\nHost: x\nX-A: b\r\n\r\n" }),
            (400, { "\($0) /healthz HTTP/1.1\r\nHost: a b\r\n\r\n" }),
            (414, { "\($0) /\(target) HTTP/1.1\r\nHost: x\r\n\r\n" }),
            (400, { "\r\n\($0) /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\n" }),
        ]
        for (status, request) in cases {
            let get = try Self.rawAnswer(wire.port, request("GET"))
            #expect(get.status == status)
            #expect(!get.afterHead.isEmpty, "GET \(status) has its JSON body")
            let head = try Self.rawAnswer(wire.port, request("HEAD"))
            #expect(head.status == status)
            #expect(head.afterHead.isEmpty, "HEAD \(status): \(String(decoding: head.afterHead, as: UTF8.self))")
        }
    }

    @Test("408 for a head that stopped arriving and 503 too_many_connections: no body for HEAD")
    func timeoutAndConnectionLimitHaveNoBodyForHead() throws {
        let wire = try WireServer { $0.headTimeoutSeconds = 1; $0.maxConnectionsPerIP = 1 }
        let slow = try Self.rawAnswer(wire.port, "HEAD /healthz HTTP/1.1\r\nHost: x\r\n", from: "127.0.0.31")
        #expect(slow.status == 408)
        #expect(slow.afterHead.isEmpty)

        let holder = try WireConnection(port: wire.port, from: "127.0.0.32")
        try holder.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(holder.responses(1).responses.first?.status == 200)
        let refusedGet = try Self.rawAnswer(wire.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", from: "127.0.0.32")
        #expect(refusedGet.status == 503)
        #expect(!refusedGet.afterHead.isEmpty)
        let refusedHead = try Self.rawAnswer(wire.port, "HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n", from: "127.0.0.32")
        #expect(refusedHead.status == 503)
        #expect(refusedHead.afterHead.isEmpty, "\(String(decoding: refusedHead.afterHead, as: UTF8.self))")
        withExtendedLifetime(holder) {}
    }

    /// RFC 3986 §3.2.2: reg-name = *( unreserved / pct-encoded / sub-delims ), IP-literal in brackets, port = *DIGIT.
    @Test("Host: a host and an optional port are served; anything else is 400 host_invalid", arguments: [
        ("x", true), ("example.com:8080", true), ("127.0.0.1", true), ("[::1]:80", true), ("[v1.x]", true), ("", true),
        ("a%41b", true), ("xn--bcher-kva.example", true), ("a!$&'()*+,;=b", true), ("x:", true),
        ("a b", false), ("evil@x/../", false), ("x/y", false), ("a:b:c", false), ("x:8o", false), ("[::1", false),
        ("[]", false), ("%zz", false), ("a\"b", false), ("x?y", false), ("x#y", false), ("[::1]x", false),
    ])
    func hostSyntax(value: String, valid: Bool) throws {
        let wire = try WireServer()
        let (response, closed, _) = try exchange(wire.port, "GET /healthz HTTP/1.1\r\nHost: \(value)\r\nConnection: close\r\n\r\n")
        #expect(response?.status == (valid ? 200 : 400), "Host: \(value)")
        if !valid { #expect(response?.errorCode == "host_invalid", "Host: \(value)") }
        #expect(closed)
    }
}
