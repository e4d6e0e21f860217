import Foundation
import HTTPEngine
@testable import LookdServer
import Testing

/// A response head made of a shared prefix (he_head_prefix: the status line and the fields many responses share) and a
/// response's own fields (he_prepared_create_prefixed), as the fetch's cached 200s are: written on the wire byte for
/// byte as a plain response with the same fields, from the engine's cache and from a route, with the 304 the cache
/// derives from it; and the prefix lives exactly as long as something references it.
@Suite("Head prefix: shared head fields, the same bytes on the wire", .timeLimit(.minutes(10)))
struct HeadPrefixTests {
    static let leading: [(name: String, value: String)] = [("Content-Type", "application/json"), ("Vary", "Accept-Encoding, Lookd-Preview"),
                                                           ("Cache-Control", "max-age=30,stale-while-revalidate=60")]
    static let own: [(name: String, value: String)] = [("ETag", "\"v1-AbCdEfGh\"")]
    static let body = Array(#"{"shared":"0123456789","own":"hello","end":"abcdefghij"}"#.utf8)

    /// The body as a shared run, an own run and a shared run: bytes 0..<22 and 37..<body.count of `shared`, 15 of its own.
    static func prefixed(_ prefix: EngineHeadPrefix, _ shared: EngineBytes) -> OpaquePointer {
        composedResponse(status: 200, headers: own, runs: [.shared(shared, 0..<22), .own(Array(body[22..<37])), .shared(shared, 37..<body.count)],
                         shareable: true, prefix: prefix)
    }

    /// One request on its own connection (`Connection: close`, so the answer ends with the connection), its raw bytes
    /// without the Date line (the one per-request field of a shareable answer).
    static func raw(_ port: UInt16, _ target: String, _ fields: String = "", method: String = "GET") throws -> String {
        let connection = try WireConnection(port: port)
        connection.setReadTimeout(milliseconds: 10_000)
        try connection.send("\(method) \(target) HTTP/1.1\r\nHost: x\r\n\(fields)Connection: close\r\n\r\n")
        let text = String(decoding: connection.readToEnd().bytes, as: UTF8.self)
        return text.split(separator: "\r\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("Date: ") }.joined(separator: "\r\n")
    }

    @Test func theCachedAndRoutedAnswersAndTheDerived304AreByteForByteThePlainResponses() throws {
        let shared = EngineBytes(Self.body)
        let prefix = EngineHeadPrefix(status: 200, headers: Self.leading)
        let plain = PreparedResponse(status: 200, headers: Self.leading + Self.own, body: Self.body, shareable: true)
        let plainNotModified = PreparedResponse(status: 304, headers: Array(Self.leading.dropFirst()) + Self.own, body: [], shareable: true)
        let routed = PreparedResponse(adopting: Self.prefixed(prefix, shared), status: 200, headers: Self.leading + Self.own, body: Self.body)
        var router = Router()
        for (path, response) in [("/plain", plain), ("/plain-304", plainNotModified), ("/routed", routed)] {
            router.add(Route("GET", path, doc: RouteDoc(summary: path, responses: [200: "it"], runsOn: .loop)) { _ in .prebuilt(response) })
        }
        let cache = EngineResponseCache(capacityBytes: 1 << 20, labels: ["/cached"], bounds: Metrics.buckets)
        let ok = Self.prefixed(prefix, shared)
        defer { he_prepared_release(ok) }
        // The 304 given as its fields: "Vary…Cache-Control" (the prefix's) then the ETag (the response's own), one run
        // of the whole head across both pieces.
        #expect(cache.put(generation: cache.generation, target: "/cached", tag: "t", etag: Self.own[0].value, label: 0, ok: ok, notModified: nil,
                          notModifiedFields: wireFields(Array(Self.leading.dropFirst()) + Self.own)))
        var limits = Limits()
        limits.threads = 1
        limits.workerThreads = 1
        let server = Server(router: router, limits: limits, metrics: Metrics(), accessLog: try AccessLog(destination: "off"), responseCache: cache)
        let port = try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop(grace: 0) }

        // Written out by hand: what a plain response with these fields is on the wire.
        let expected200 = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nVary: Accept-Encoding, Lookd-Preview\r\n"
            + "Cache-Control: max-age=30,stale-while-revalidate=60\r\nETag: \"v1-AbCdEfGh\"\r\nContent-Length: \(Self.body.count)\r\n"
            + "Connection: close\r\n\r\n" + String(decoding: Self.body, as: UTF8.self)
        let expected304 = "HTTP/1.1 304 Not Modified\r\nVary: Accept-Encoding, Lookd-Preview\r\n"
            + "Cache-Control: max-age=30,stale-while-revalidate=60\r\nETag: \"v1-AbCdEfGh\"\r\nConnection: close\r\n\r\n"
        #expect(try Self.raw(port, "/plain") == expected200)
        #expect(try Self.raw(port, "/plain-304") == expected304)
        #expect(try Self.raw(port, "/routed") == expected200)
        #expect(try Self.raw(port, "/cached") == expected200)
        #expect(try Self.raw(port, "/cached", "If-None-Match: \"v1-AbCdEfGh\"\r\n") == expected304)
        // HEAD: the same head, Content-Length included, no body.
        let head = expected200.prefix(upTo: expected200.range(of: "\r\n\r\n")!.upperBound)
        #expect(try Self.raw(port, "/cached", method: "HEAD") == String(head))
        #expect(cache.stats.counts.map(\.count).reduce(0, +) == 3)
    }

    @Test func thePrefixIsReleasedByEachResponseThatGoesAndAPurgeByTagFreesItsEntries() {
        let shared = EngineBytes(Self.body)
        let prefix = EngineHeadPrefix(status: 200, headers: Self.leading)
        #expect(he_prepared_references(prefix.value) == 1)
        let cache = EngineResponseCache(capacityBytes: 1 << 20, labels: ["fetch"], bounds: [])
        for (target, tag) in [("/a", "one"), ("/b", "one"), ("/c", "two")] {
            let ok = Self.prefixed(prefix, shared)
            #expect(cache.put(generation: cache.generation, target: target, tag: tag, etag: Self.own[0].value, label: 0, ok: ok, notModified: nil,
                              notModifiedFields: wireFields(Array(Self.leading.dropFirst()) + Self.own)))
            he_prepared_release(ok)
        }
        // Each entry's 200 holds it (its 304 is derived: no second response), besides this test's own reference.
        #expect(he_prepared_references(prefix.value) == 4)
        cache.purge(tag: "one")
        #expect(cache.usage.entries == 1)
        #expect(he_prepared_references(prefix.value) == 2)
        cache.purge(tag: "two")
        #expect(cache.usage.entries == 0)
        #expect(cache.usage.bytes == 0)
        // Only this test's reference is left: when it goes, so does the prefix.
        #expect(he_prepared_references(prefix.value) == 1)
        #expect(he_prepared_references(shared.value) == 1)
    }

    @Test func aPrefixIsOnlyAHeadStartAndAResponsesSharedRunsAreAllOfOneValue() {
        // A status out of he_head_prefix's range, and a value that is not a prefix, are refused.
        #expect(he_head_prefix(99, nil, 0) == nil)
        let a = EngineBytes(Array("0123456789".utf8)), b = EngineBytes(Array("abcdefghij".utf8))
        #expect(he_prepared_create_prefixed(a.value, nil, 0, nil, 0) == nil)
        // Shared runs of two values in one response: refused (a run names no owner of its own, docs/http.md).
        var parts = [he_body_part(shared: a.value, offset: 0, bytes: nil, length: 5), he_body_part(shared: b.value, offset: 0, bytes: nil, length: 5)]
        #expect(he_prepared_create_parts(200, nil, 0, &parts, 2) == nil)
        parts[1] = he_body_part(shared: a.value, offset: 5, bytes: nil, length: 5)
        let made = he_prepared_create_parts(200, nil, 0, &parts, 2)
        #expect(made != nil)
        he_prepared_release(made)
    }
}
