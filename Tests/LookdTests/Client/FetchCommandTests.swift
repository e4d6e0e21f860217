import Foundation
import LookClient
import StableJSON
import Testing

/// `lookd fetch` (the binary) against the daemon on loopback: what a device would see.
@Suite(.timeLimit(.minutes(10)))
struct FetchCommandTests {
    let live: LiveLookd
    let key = newKey()
    let dashboard: JSONValue = .object(["accent": .string("#FFD60A"), "topics": .array([.string("bug")])])

    init() throws {
        live = try LiveLookd()
        try live.publish(key, dashboard, version: 1)
    }

    func fetch(_ extra: [String], server: String? = nil) throws -> (Int32, JSONValue?, String) {
        let (status, output, error) = try runLookd(["fetch", "--server", server ?? live.proxyURL.absoluteString, "--app", key,
                                                    "--cache", live.cache.path] + extra)
        return (status, try? JSONReader.read(Array(output.utf8)), error)
    }

    @Test func printsWhatTheClientReturnsFromTheNetworkTheCacheAndBuiltIn() throws {
        let files = try TemporaryDirectory()
        let code = files.path + "/code.json"
        try Data(#"{"appName": "Ledgerly", "corners": "square"}"#.utf8).write(to: URL(fileURLWithPath: code))
        let (status, first, _) = try fetch(["--lang", "es-MX", "--code", code, "--json"])
        #expect(status == 0)
        let json = try #require(first)
        #expect(json["source"] == .string("network") && json["version"]?.intValue == 1 && json["locale"] == .string("es-419"))
        let layers = AppLayers(codeJSON: try JSONReader.read(Array(try Data(contentsOf: URL(fileURLWithPath: code)))), inferredJSON: nil)
        #expect(JSONWriter.bytes(try #require(json["look"])) == (try live.resolve(dashboard, layers)))
        #expect(json["texts"]?["topics"]?.arrayValue?.count == 1)

        let (_, second, _) = try fetch(["--lang", "es-MX", "--code", code, "--json"])
        #expect(second?["source"] == .string("cache") && live.proxy.requests.count == 1)
        let (_, third, _) = try fetch(["--lang", "es-MX", "--json", "--refresh"])
        #expect(third?["source"] == .string("cache") && live.proxy.requests.count == 2)
        // The fetch tag of version 1 in the coding the client accepted (docs/http-api.md: "v1-", "v1b" or "v1g" then the hash).
        #expect(["-", "b", "g"].contains { live.proxy.requests[1].lowercased().contains("if-none-match: \"v1\($0)") })

        // The server down: the cached look, exit 0, the reason on stderr.
        let down = "http://127.0.0.1:\(try freePort())"
        let (offline, cached, reason) = try fetch(["--lang", "es-MX", "--json", "--refresh"], server: down)
        #expect(offline == 0 && cached?["source"] == .string("cache") && reason.contains("unreachable"))
        // No cache for that language either: the built-in look.
        let (builtInStatus, builtIn, _) = try fetch(["--lang", "ja", "--json"], server: down)
        #expect(builtInStatus == 0 && builtIn?["source"] == .string("builtIn") && builtIn?["version"] == .null && builtIn?["texts"] == .null)

        // Text output.
        let (_, text, _) = try runLookd(["fetch", "--server", live.proxyURL.absoluteString, "--app", key, "--cache", live.cache.path, "--lang", "es-MX"])
        #expect(text.hasPrefix("source: cache\nversion: 1\nlocale: es-419\n"))
    }

    @Test func previewShowsTheDraftAndWritesNothing() throws {
        let token = try live.draftToken(key, .object(["accent": .string("#FF2D55"), "corners": .string("square")]), version: 1)
        let (status, shown, _) = try fetch(["--lang", "de", "--preview", token, "--json"])
        #expect(status == 0 && shown?["draft"] == .bool(true) && shown?["source"] == .string("network") && shown?["version"]?.intValue == 1)
        #expect(shown?["look"]?["corners"]?["value"] == .string("square"))
        #expect(live.cacheFiles.isEmpty)
        #expect(live.proxy.requests.last?.lowercased().contains("lookd-preview: \(token.lowercased())") == true)
        // A refused token: the published look, exit 0, the reason on stderr.
        let (refusedStatus, published, reason) = try fetch(["--lang", "de", "--preview", "pv1.forged", "--json"])
        #expect(refusedStatus == 0 && published?["draft"] == .bool(false) && published?["source"] == .string("network"))
        #expect(published?["look"]?["accent"]?["value"]?["light"] == .string("#FFD60A") && reason.contains("preview token"))
        #expect(try fetch(["--preview", ""]).0 == 2)
    }

    @Test func usageProblemsExitTwo() throws {
        let files = try TemporaryDirectory()
        let bad = files.path + "/bad.json"
        try Data("{\"accent\": }".utf8).write(to: URL(fileURLWithPath: bad))
        #expect(try fetch(["--code", bad]).0 == 2)
        #expect(try fetch(["--inferred", files.path + "/missing.json"]).0 == 2)
        #expect(try fetch([], server: "ftp://x").0 == 2)
        #expect(try runLookd(["fetch", "--server", "http://127.0.0.1:1"]).0 == 2)
        #expect(try fetch(["--frobnicate", "1"]).0 == 2)
    }
}
