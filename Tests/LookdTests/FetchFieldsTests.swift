import Foundation
@testable import LookdServer
import Testing

/// The SDK fetch's header fields are the ones docs/http-api.md shows, in its order, on every path that answers it:
/// the routes (a miss, then the look cache), the engine's response cache, and the br representation.
@Suite("The SDK fetch's fields are docs/http-api.md's", .timeLimit(.minutes(10)))
struct FetchFieldsTests {
    /// The documented 200's fields (name, value), from the example under "The SDK's fetch".
    static func documentedFields() throws -> [(String, String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/http-api.md"), encoding: .utf8)
        let section = try #require(document.range(of: "### The SDK's fetch"))
        let start = try #require(document.range(of: "HTTP/1.1 200 OK\n", range: section.upperBound..<document.endIndex))
        let end = try #require(document.range(of: "\n\n", range: start.upperBound..<document.endIndex))
        return document[start.upperBound..<end.lowerBound].split(separator: "\n").map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1].dropFirst()) : "")
        }
    }

    /// The response's fields but the per-request ones the engine adds (Date, X-Request-Id, Connection) and the framing.
    static func fields(_ result: HTTPResult) -> [String] {
        result.headers.filter { !["date", "x-request-id", "connection", "content-length"].contains($0.0.lowercased()) }.map { "\($0.0): \($0.1)" }
    }

    @Test func everyPathSendsTheDocumentedFields() throws {
        let app = try ResponseCacheTests.Fixture()
        let key = newKey()
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        let target = "/v1/apps/\(key)/look?lang=de-AT"
        let miss = try app.send("GET", target)
        let etag = try #require(miss.header("ETag"))
        let documented = try Self.documentedFields()
        #expect(documented.map(\.0) == ["Content-Type", "ETag", "Content-Language", "Vary", "Cache-Control", "Surrogate-Key", "Cache-Tag"])
        let expected = documented.map { name, value in
            switch name {
            case "ETag": "\(name): \(etag)"
            case "Surrogate-Key", "Cache-Tag": "\(name): \(key)"
            default: "\(name): \(value)"
            }
        }
        #expect(etag.hasPrefix("\"v1-") && etag.utf8.count == "\"v1-0123456789abcdef\"".utf8.count)
        #expect(Self.fields(miss) == expected, "the routes, first fetch")
        let byEngine = try app.send("GET", target)
        #expect(app.answered == [1, 0, 0, 0])
        #expect(Self.fields(byEngine) == expected, "the engine's response cache")
        let byLookCache = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de-AT")])
        #expect(Self.fields(byLookCache) == expected, "the routes, Accept-Language")
        #expect(Self.fields(try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de-AT")])) == expected, "the look cache")
        #expect(app.answered == [1, 0, 0, 0])
        // br: its own tag (the identity tag with -br before the closing quote) and Content-Encoding.
        let brotli = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de-AT"), ("Accept-Encoding", "br")])
        let brTag = String(etag.dropLast()) + "-br\""
        #expect(Self.fields(brotli) == expected.map { $0.hasPrefix("ETag:") ? "ETag: \(brTag)" : $0 } + ["Content-Encoding: br"])
    }
}
