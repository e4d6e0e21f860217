import Foundation
@testable import LookdServer
import Testing

/// The SDK fetch's header fields are the ones docs/http-api.md shows, in its order, on every path that answers it:
/// the routes (a miss, then the look cache), the engine's response cache, and the br representation; with
/// Accept-Language instead of `?lang=`, the two fields the document adds; without `--no-purge-keys`, the app's key.
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

    /// The response's fields but the per-request ones the engine adds (Date, Connection) and the framing.
    static func fields(_ result: HTTPResult) -> [String] {
        result.headers.filter { !["date", "connection", "content-length"].contains($0.0.lowercased()) }.map { "\($0.0): \($0.1)" }
    }

    @Test func everyPathSendsTheDocumentedFields() throws {
        let app = try ResponseCacheTests.Fixture()
        let key = newKey()
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        let target = "/v1/apps/\(key)/look?lang=de-AT"
        let miss = try app.send("GET", target)
        let etag = try #require(miss.header("ETag"))
        let documented = try Self.documentedFields()
        #expect(documented.map(\.0) == ["Content-Type", "Vary", "Cache-Control", "Surrogate-Key", "Cache-Tag", "ETag"])
        // The example's tag and app key are placeholders: this fetch's own stand in for them.
        let expected = documented.map { name, value in
            name == "ETag" ? "\(name): \(etag)" : "\(name): \(value == "pk_live_…" ? key : value)"
        }
        // docs/http-api.md: "v<version>-<8 base64url characters>".
        #expect(etag.hasPrefix("\"v1-") && etag.hasSuffix("\"") && etag.utf8.count == "\"v1-\"".utf8.count + 8)
        #expect(etag.utf8.dropFirst(4).dropLast().allSatisfy { "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.contains($0) })
        // No X-Request-Id either: Self.fields keeps it, so it would show.
        #expect(Self.fields(miss) == expected, "the routes, first fetch")
        let byEngine = try app.send("GET", target)
        #expect(app.answered == [1, 0, 0, 0])
        #expect(Self.fields(byEngine) == expected, "the engine's response cache")
        // With Accept-Language deciding the language (docs/http-api.md): Content-Language after Content-Type, and Vary
        // names Accept-Language.
        let negotiated = expected.flatMap { field -> [String] in
            if field.hasPrefix("Content-Type:") { return [field, "Content-Language: de"] }
            return field.hasPrefix("Vary:") ? ["Vary: Accept-Encoding, Accept-Language, Lookd-Preview"] : [field]
        }
        let byLookCache = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de-AT")])
        #expect(Self.fields(byLookCache) == negotiated, "the routes, Accept-Language")
        #expect(Self.fields(try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de-AT")])) == negotiated, "the look cache")
        #expect(app.answered == [1, 0, 0, 0])
        // br: its own tag (the identity tag with b in place of the - after the version) and Content-Encoding.
        let brotli = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de-AT"), ("Accept-Encoding", "br")])
        let brTag = "\"v1b" + etag.dropFirst(4)
        #expect(Self.fields(brotli) == negotiated.map { $0.hasPrefix("ETag:") ? "ETag: \(brTag)" : $0 } + ["Content-Encoding: br"])
        // The 304s (the routes' and the engine's) repeat the 200's fields but Content-Type (RFC 9110 §15.4.5), again
        // without X-Request-Id.
        let revalidated = try app.send("GET", target, [("If-None-Match", etag)])
        #expect(revalidated.status == 304)
        #expect(Self.fields(revalidated) == Array(expected.dropFirst()))
        #expect(app.answered == [1, 1, 0, 0])
        let revalidatedByRoutes = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de-AT"), ("If-None-Match", etag)])
        #expect(revalidatedByRoutes.status == 304)
        #expect(Self.fields(revalidatedByRoutes) == Array(negotiated.dropFirst()))
    }

    @Test func otherAnswersKeepTheirRequestId() throws {
        let app = try ResponseCacheTests.Fixture()
        // An error of the same route, and another route's answer: docs/http-api.md, every response but the fetch's
        // 200 and 304.
        let unknown = try app.send("GET", "/v1/apps/\(newKey())/look?lang=de")
        #expect(unknown.status == 404)
        #expect(unknown.header("X-Request-Id")?.isEmpty == false)
        #expect(unknown.header("Content-Type") == "application/json")
        let health = try app.send("GET", "/healthz")
        #expect(health.header("X-Request-Id")?.isEmpty == false)
    }

    @Test func purgeKeysAreSentUnlessTurnedOff() throws {
        for purgeKeys in [false, true] {
            let app = try ResponseCacheTests.Fixture(fetchOptions: LookResponse.Options(purgeKeys: purgeKeys))
            let key = newKey()
            #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
            let target = "/v1/apps/\(key)/look?lang=de"
            let byRoutes = try app.send("GET", target)
            let byEngine = try app.send("GET", target)
            let etag = try #require(byRoutes.header("ETag"))
            let notModified = try app.send("GET", target, [("If-None-Match", etag)])
            let byLookCache = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de"), ("If-None-Match", etag)])
            #expect(app.answered == [1, 1, 0, 0])
            for (answer, status) in [(byRoutes, 200), (byEngine, 200), (notModified, 304), (byLookCache, 304)] {
                #expect(answer.status == status)
                // docs/http-api.md: both exactly the app key, last in the head but for the ETag, or neither.
                let fields = Self.fields(answer)
                #expect(fields.last?.hasPrefix("ETag: ") == true)
                let last = fields.dropLast().suffix(2)
                #expect(Array(last) == (purgeKeys ? ["Surrogate-Key: \(key)", "Cache-Tag: \(key)"] : Array(last)))
                #expect(answer.header("Surrogate-Key") == (purgeKeys ? key : nil))
                #expect(answer.header("Cache-Tag") == (purgeKeys ? key : nil))
            }
        }
    }
}
