import Foundation
@testable import LookdServer
import Testing

/// The SDK fetch in br and gzip over the wire: both paths (the routes, the engine's response cache), every body
/// decoded by the `brotli` and `gzip` programs and compared with the identity body.
@Suite("Compressed fetch: Accept-Encoding, Content-Encoding, one tag per coding", .timeLimit(.minutes(10)))
struct CompressedFetchTests {
    typealias Fixture = ResponseCacheTests.Fixture

    static func decoded(_ result: HTTPResult) throws -> [UInt8] {
        switch result.header("Content-Encoding") {
        case "br"?: return try CompressionTests.filter("brotli", ["-d", "-c"], result.body)
        case "gzip"?: return try CompressionTests.filter("gzip", ["-d", "-c"], result.body)
        case nil: return result.body
        case let other?: throw HarnessError("unexpected Content-Encoding \(other)")
        }
    }

    @Test func brAndGzipAreTheIdentityBytesWithTheirOwnTagsFromBothPaths() throws {
        let app = try Fixture()
        let key = newKey()
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square", "appName": "Ledgerly"])).status == 201)
        let target = "/v1/apps/\(key)/look?lang=de"
        let identity = try app.send("GET", target)
        #expect(identity.status == 200)
        #expect(identity.header("Content-Encoding") == nil)
        // ?lang= decided the language: Vary does not name Accept-Language (docs/http-api.md).
        #expect(identity.header("Vary") == "Accept-Encoding, Lookd-Preview")
        let etag = try #require(identity.header("ETag"))
        // docs/http-api.md: the coding's letter (b, g) in place of the "-" after the version.
        let tag = { (coding: String) in "\"v1" + (coding == "br" ? "b" : "g") + etag.dropFirst(4) }

        // The first br request computes both codings on a worker; from then on the engine answers each.
        let first = try app.send("GET", target, [("Accept-Encoding", "gzip, deflate, br")])
        let before = app.answered
        let second = try app.send("GET", target, [("Accept-Encoding", "gzip, deflate, br")])
        #expect(app.answered[0] == before[0] + 1, "answered by the engine")
        for result in [first, second] {
            #expect(result.status == 200)
            #expect(result.header("Content-Encoding") == "br")
            #expect(result.header("ETag") == tag("br"))
            #expect(result.header("Vary") == "Accept-Encoding, Lookd-Preview")
            #expect(result.header("Content-Length") == String(result.body.count))
            #expect(result.body.count < identity.body.count / 2)
            #expect(try Self.decoded(result) == identity.body)
        }
        #expect(second.body == first.body)
        let gzip = try app.send("GET", target, [("Accept-Encoding", "gzip")])
        #expect(gzip.header("Content-Encoding") == "gzip")
        #expect(gzip.header("ETag") == tag("gzip"))
        #expect(try Self.decoded(gzip) == identity.body)
        #expect(app.answered[0] == before[0] + 2)
        // Identity still, for a client that does not ask, or prefers it.
        #expect(try app.send("GET", target, [("Accept-Encoding", "identity, br;q=0.5")]).body == identity.body)
        #expect(try app.send("GET", target, [("Accept-Encoding", "")]).body == identity.body)

        // HEAD: the chosen representation's head.
        let head = try app.send("HEAD", target, [("Accept-Encoding", "br")])
        #expect(head.header("Content-Encoding") == "br" && head.header("Content-Length") == String(first.body.count) && head.body.isEmpty)

        // If-None-Match revalidates any representation the request accepts; the 304 names it.
        let answeredBefore = app.answered
        for (accept, noneMatch, status, answeredTag) in [
            ("br", tag("br"), 304, tag("br")),
            ("gzip, br", "\"x\", \(tag("gzip"))", 304, tag("gzip")),
            ("br", etag, 304, etag),                     // identity stays acceptable
            ("br", tag("gzip"), 200, tag("br")),         // gzip is not accepted: its tag does not match
            ("br, identity;q=0", etag, 200, tag("br")),
            ("gzip", "*", 304, tag("gzip")),
        ] {
            let result = try app.send("GET", target, [("Accept-Encoding", accept), ("If-None-Match", noneMatch)])
            #expect(result.status == status, "\(accept) / \(noneMatch)")
            #expect(result.header("ETag") == answeredTag, "\(accept) / \(noneMatch)")
            #expect(result.header("Content-Encoding") == (status == 304 ? nil : "br"))
        }
        #expect(app.answered[0] + app.answered[1] == answeredBefore[0] + answeredBefore[1] + 6, "all by the engine")

        // Nothing acceptable: 406 with a stable code, from the route.
        let refused = try app.send("GET", target, [("Accept-Encoding", "identity;q=0")])
        #expect(refused.status == 406)
        #expect(refused.errorCode == "encoding_unacceptable")

        // The Swift path (Accept-Language, never the engine's) compresses the same way.
        let negotiated = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de")])
        for coding in ["br", "gzip"] {
            for _ in 0..<2 {
                let result = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de"), ("Accept-Encoding", coding)])
                #expect(result.header("Content-Encoding") == coding)
                #expect(result.header("ETag") == "\"v1" + (coding == "br" ? "b" : "g") + (try #require(negotiated.header("ETag"))).dropFirst(4))
                #expect(try Self.decoded(result) == negotiated.body)
            }
        }
        // A publish purges every coding.
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-Match", "\"v1\"")], body: json(["corners": "round"])).status == 200)
        let after = try app.send("GET", target, [("Accept-Encoding", "br"), ("If-None-Match", tag("br"))])
        #expect(after.status == 200)
        #expect(try Self.decoded(after) == (try app.send("GET", target)).body)
    }

    /// Tags of the form lookd sent before `"v<version>-<8 base64url>"` (`"v1-<16 hex digits>"`, with `-br` or `-gzip`
    /// for the codings), as SDKs installed before the change keep sending them: they name no current representation,
    /// so If-None-Match does not match (RFC 9110 §13.1.2: a 200 with the body, not an error), on the engine's path and
    /// the routes'; the tags of today revalidate for each coding on both.
    @Test func tagsOfTheFormerFormAnswer200() throws {
        let app = try Fixture()
        let key = newKey()
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        for target in ["/v1/apps/\(key)/look?lang=de", "/v1/apps/\(key)/look"] {
            let language = target.hasSuffix("?lang=de") ? [] : [("Accept-Language", "de")]
            for coding in ["identity", "br", "gzip"] {
                let accept = language + [("Accept-Encoding", coding)]
                let current = try app.send("GET", target, accept)
                // Twice: the second from the engine's cache for the ?lang= target.
                let again = try app.send("GET", target, accept)
                let tag = try #require(current.header("ETag"))
                #expect(again.header("ETag") == tag)
                #expect(try app.send("GET", target, accept + [("If-None-Match", tag)]).status == 304, "\(target) \(coding)")
                let former = "\"v1-5a423550147a6324" + (coding == "identity" ? "" : "-" + coding) + "\""
                let answer = try app.send("GET", target, accept + [("If-None-Match", former)])
                #expect(answer.status == 200, "\(target) \(coding)")
                #expect(answer.header("ETag") == tag)
                #expect(answer.body == current.body)
            }
        }
    }
}
