import Foundation
@testable import LookdServer
import Testing

/// The answers made per request (lint here) are compressed on the fly over the wire when Accept-Encoding asks and the
/// body is at least the threshold (docs/http-api.md, "Compression on the fly"); the bodies decode, by the `brotli` and
/// `gzip` programs, to the identity answer's bytes.
@Suite("Compression on the fly: lint, publish and preview answers", .timeLimit(.minutes(10)))
struct OnTheFlyCompressionTests {
    @Test func aLargeLintAnswerIsSentInTheCodingAskedForAndASmallOneAsItIs() throws {
        let app = try ResponseCacheTests.Fixture()
        let english = try LintRouteTests.text("en")
        let german = try LintRouteTests.text("de").replacingOccurrences(of: "\"thread.unread\": \"", with: "\"thread.unread\": \"{count, plural, other {kaputt}\" , \"x\": \"")
        let body = LintRouteTests.body([("en.json", english), ("de.json", german)])
        let identity = try app.send("POST", "/v1/lint?format=sarif", [("Content-Type", "application/json")], body: body)
        #expect(identity.status == 200)
        #expect(identity.header("Content-Encoding") == nil)
        #expect(identity.body.count >= 1_024, "the answer is over the threshold (else this test shows nothing)")
        // Eligible whichever coding is sent: a cache must keep the forms apart.
        #expect(identity.header("Vary") == "Accept-Encoding")
        for (coding, program) in [("br", "brotli"), ("gzip", "gzip")] {
            let coded = try app.send("POST", "/v1/lint?format=sarif", [("Content-Type", "application/json"), ("Accept-Encoding", coding)], body: body)
            #expect(coded.status == 200)
            #expect(coded.header("Content-Encoding") == coding)
            #expect(coded.header("Vary") == "Accept-Encoding")
            #expect(coded.header("X-Lint-Result") == identity.header("X-Lint-Result"))
            #expect(coded.header("Content-Length") == String(coded.body.count))
            #expect(coded.body.count < identity.body.count)
            #expect(try CompressionTests.filter(program, ["-d", "-c"], coded.body) == identity.body)
        }
        // q-values decide (RFC 9110 §12.5.3): gzip preferred over br here.
        let preferred = try app.send("POST", "/v1/lint?format=sarif", [("Content-Type", "application/json"), ("Accept-Encoding", "br;q=0.5, gzip")], body: body)
        #expect(preferred.header("Content-Encoding") == "gzip")
        // Nothing acceptable but identity refused: sent as it is, not 406.
        let refused = try app.send("POST", "/v1/lint?format=sarif", [("Content-Type", "application/json"), ("Accept-Encoding", "identity;q=0")], body: body)
        #expect(refused.status == 200 && refused.header("Content-Encoding") == nil && refused.body == identity.body)
        // A small answer (an error, under the threshold) is sent as it is, without Vary.
        let small = try app.send("POST", "/v1/lint", [("Content-Type", "application/json"), ("Accept-Encoding", "br")], body: json(["catalogs": []]))
        #expect(small.status == 400)
        #expect(small.body.count < 1_024)
        #expect(small.header("Content-Encoding") == nil && small.header("Vary") == nil)
    }

    @Test func theSDKFetchKeepsItsOwnCodings() throws {
        // The fetch is prebuilt (its codings computed once, with their own tags): never compressed again on the fly.
        let app = try ResponseCacheTests.Fixture()
        let key = newKey()
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        let identity = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de")])
        let brotli = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de"), ("Accept-Encoding", "br")])
        #expect(brotli.header("Content-Encoding") == "br")
        #expect(brotli.header("Vary") == "Accept-Encoding, Accept-Language, Lookd-Preview")
        #expect(try CompressionTests.filter("brotli", ["-d", "-c"], brotli.body) == identity.body)
    }

    @Test func eligibility() {
        #expect(OnTheFlyCompression.compressible("application/json"))
        #expect(OnTheFlyCompression.compressible("text/html; charset=utf-8"))
        #expect(OnTheFlyCompression.compressible("application/sarif+json"))
        #expect(!OnTheFlyCompression.compressible("text/event-stream"))
        #expect(!OnTheFlyCompression.compressible("image/png"))
        #expect(!OnTheFlyCompression.compressible(nil))
        let big = [UInt8](repeating: 0x61, count: 4_096)
        let tagged = Response(status: 200, headers: [("Content-Type", "application/json"), ("ETag", "\"v1\"")], body: big)
        #expect(OnTheFlyCompression.apply(tagged, acceptEncoding: "br").headers.count == 2, "a response with an ETag is left alone")
        let noContent = Response(status: 204, headers: [("Content-Type", "application/json")], body: big)
        #expect(OnTheFlyCompression.apply(noContent, acceptEncoding: "br").body == big)
        let plain = Response(status: 200, headers: [("Content-Type", "application/json"), ("Vary", "Accept-Language")], body: big)
        let coded = OnTheFlyCompression.apply(plain, acceptEncoding: "gzip")
        #expect(coded.headers.map(\.name) == ["Content-Type", "Vary", "Content-Encoding"])
        #expect(coded.headers[1].value == "Accept-Language, Accept-Encoding")
        #expect(coded.body.count < 100)
    }
}
