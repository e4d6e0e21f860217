import Foundation
import LookClient
import LookResolver
import StableJSON
import Testing

/// LookClient against the real daemon on loopback, through a fault-injecting proxy. In every case the caller gets
/// the last good look or the built-in one, and a clear error value.
@Suite(.timeLimit(.minutes(10)))
struct LookClientTests {
    let live: LiveLookd
    let key = newKey()
    let dashboard: JSONValue = .object(["accent": .string("#FF6A00"), "corners": .string("soft"), "topics": .array([.string("billing"), .string("bug")])])
    let layers = AppLayers(code: CodeLayer(font: .serif, topics: [.idea], appName: "Ledgerly"), inferred: InferredLayer(accent: AccentColor(.white), hasBundleIcon: true))

    init() throws {
        live = try LiveLookd()
        try live.publish(key, dashboard, version: 1)
    }

    @Test func firstFetchIsTheNetworkThenTheFreshCacheWithoutARequest() async throws {
        let client = live.client(key, layers: layers)
        let first = await client.look(language: "de-AT")
        #expect(first.source == .network && first.version == 1 && first.locale == "de" && first.error == nil)
        // The merge of the published layer with the app's layers is the daemon's resolve of the three.
        #expect(first.look.jsonBytes() == (try live.resolve(dashboard, layers)))
        // The dashboard's topics win; their words are the German catalog's (Resources/Localizations/de.json).
        #expect(first.texts?.topics.map(\.label) == ["Zahlungen & Abo", "Fehler melden"])
        #expect(first.texts?.replyExpectation == "Antwortet meist innerhalb eines Tages")
        #expect(live.proxy.requests.count == 1 && live.proxy.requests[0].hasPrefix("GET /v1/apps/\(key)/look?lang=de-AT "))
        let second = await client.look(language: "de-AT")
        #expect(second.source == .cache && second.version == 1 && live.proxy.requests.count == 1)
        #expect(live.cacheFiles == ["look-\(key)-de-AT.cache"])
    }

    @Test func aStaleLookIsRevalidatedWith304AndKeepsItsBytes() async throws {
        let client = live.client(key)
        let first = await client.look(language: "fr")
        #expect(first.version == 1 && live.proxy.requests.count == 1)
        live.clock.advance(200)   // past max-age (30 s) and stale-while-revalidate (60 s)
        let second = await client.look(language: "fr")
        #expect(second.source == .cache && second.version == 1 && second.age == 0 && second.error == nil)
        #expect(second.look == first.look && second.texts == first.texts)
        let head = live.proxy.requests[1].lowercased()
        // The fetch tag of version 1 in the coding the client accepted (docs/http-api.md: "v1-", "v1b" or "v1g" then the hash).
        #expect(["-", "b", "g"].contains { head.contains("if-none-match: \"v1\($0)") })
    }

    @Test func aStaleLookInsideStaleWhileRevalidateIsReturnedAtOnceAndRevalidatedInTheBackground() async throws {
        let client = live.client(key, timeout: 30)
        _ = await client.look(language: "ja")
        live.clock.advance(45)    // stale (max-age 30) but within stale-while-revalidate (60)
        live.proxy.set(.stall)    // a revalidation would wait 30 s: the caller must not
        let stale = await client.look(language: "ja")
        #expect(stale.source == .cache && stale.version == 1 && stale.error == nil && stale.age == 45)
        #expect(await live.proxy.requestsArrived(2))   // the first fetch, then the background one
        #expect(live.proxy.requests.count == 2 && live.proxy.requests[1].lowercased().contains("if-none-match:"))
        // A second call while the revalidation is in flight does not start another one.
        _ = await client.look(language: "ja")
        #expect(live.proxy.requests.count == 2)
        await client.clear()
    }

    @Test func aPublishBetweenTwoFetchesIsOneChange() async throws {
        let client = live.client(key)
        var changes = client.changes.makeAsyncIterator()
        _ = await client.look(language: "en")
        try live.publish(key, .object(["accent": .string("#3550E6")]), version: 2)
        let second = await client.refresh(language: "en")
        #expect(second.source == .network && second.version == 2)
        _ = await client.refresh(language: "en")     // a 304: no change
        try live.publish(key, .object(["accent": .string("#00A86B")]), version: 3)
        _ = await client.refresh(language: "en")
        // The stream's first two events are v2 and v3: the first fetch and the 304 yielded nothing.
        #expect(await changes.next() == LookChange(language: "en", version: 2, previousVersion: 1))
        #expect(await changes.next() == LookChange(language: "en", version: 3, previousVersion: 2))
    }

    @Test func aConfigPushThatIsNotNewerMakesNoRequest() async throws {
        let client = live.client(key)
        _ = await client.look(language: "de")
        #expect(await client.handleConfigPush(ConfigPush(version: 1)) == .noData)
        #expect(await client.handleConfigPush(ConfigPush(appKey: newKey(), version: 9)) == .noData)
        #expect(live.proxy.requests.count == 1)
        try live.publish(key, .object(["corners": .string("square")]), version: 2)
        #expect(await client.handleConfigPush(ConfigPush(appKey: key, version: 2)) == .newData)
        #expect(await client.look(language: "de").look.corners.value == .square)
        #expect(await client.handleConfigPush(ConfigPush()) == .noData)   // revalidated: 304
        live.proxy.set(.canned(Array("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)))
        #expect(await client.handleConfigPush(ConfigPush(version: 3)) == .failed)
        #expect(live.proxy.requests.count == 4)
        #expect(ConfigPush(userInfo: ["pingfront": ["kind": "config", "version": 4]]) == ConfigPush(version: 4))
        #expect(ConfigPush(userInfo: ["pingfront": ["kind": "message"]]) == nil)
        #expect(ConfigPush(userInfo: ["aps": ["content-available": 1]]) == nil)
    }

    @Test func offlineFirstLaunchResolvesTheAppsLayersLocally() async throws {
        let down = URL(string: "http://127.0.0.1:\(try freePort())")!
        let client = live.client(key, server: down, layers: layers)
        let look = await client.look(language: "ar")
        #expect(look.source == .builtIn && look.version == nil && look.texts == nil && look.locale == nil && look.age == nil)
        guard case .unreachable? = look.error else { Issue.record("expected unreachable, got \(String(describing: look.error))"); return }
        #expect(look.look.jsonBytes() == (try live.resolve(nil, layers)))
        // Backoff: the next call asks nothing and says why.
        guard case .unreachable? = await client.look(language: "ar").error else { Issue.record("the error should stay"); return }
    }

    /// Each fault after a good fetch: the cached look stays, with the fault's error.
    @Test(arguments: [
        ("reset", FaultProxy.Fault.resetMidBody),
        ("truncated, full Content-Length", .truncated(rewriteLength: false)),
        ("truncated, rewritten Content-Length", .truncated(rewriteLength: true)),
        ("garbage", .canned(Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{not json".utf8))),
        ("slow", .stall),
    ])
    func aFaultKeepsTheLastGoodLook(name: String, fault: FaultProxy.Fault) async throws {
        // The harness's 10 s timeout, not a short one: under ThreadSanitizer on a loaded CI machine the good first
        // fetch once took over 1 s and came back built-in. Only the stall waits the timeout out.
        let client = live.client(key)
        let good = await client.look(language: "de")
        #expect(good.source == .network)
        try live.publish(key, .object(["corners": .string("square")]), version: 2)
        live.proxy.set(fault)
        let after = await client.refresh(language: "de")
        #expect(after.source == .cache && after.version == 1 && after.look == good.look, "\(name)")
        switch (name, after.error) {
        case ("slow", .timedOut?), ("reset", .unreachable?), ("truncated, full Content-Length", .unreachable?),
             ("truncated, rewritten Content-Length", .invalidAnswer?), ("garbage", .invalidAnswer?): break
        case ("reset", .timedOut?), ("truncated, full Content-Length", .timedOut?):
            // A connection cut mid-body is sometimes noticed by FoundationNetworking's URLSession only at the request's
            // timeout (2 of 3 fresh-clone CI runs under ThreadSanitizer, beside the failover suites; never alone). For
            // the caller it is the same outcome, a network failure with the cached look kept, provided the daemon did
            // answer: the proxy read its whole answer, to the daemon's close, before cutting it.
            #expect(live.proxy.waitForAnswers(2, seconds: 60), "\(name): the daemon's answer never ended")
        default: Issue.record("\(name): unexpected error \(String(describing: after.error))")
        }
        // The cache file still holds the good answer: a new client (a cold start) reads it.
        let cold = await live.client(key).look(language: "de")
        #expect(cold.source == .cache && cold.version == 1)
    }

    @Test func aFaultOnFirstLaunchGivesTheBuiltInLook() async throws {
        live.proxy.set(.truncated(rewriteLength: true))
        let look = await live.client(key, layers: layers).look(language: "de")
        #expect(look.source == .builtIn && look.texts == nil)
        guard case .invalidAnswer? = look.error else { Issue.record("got \(String(describing: look.error))"); return }
        #expect(live.cacheFiles.isEmpty)
    }

    @Test func retryAfterIsHonoured() async throws {
        live.proxy.set(.canned(Array("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 120\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)))
        let client = live.client(key)
        let first = await client.look(language: "de")
        #expect(first.source == .builtIn && first.error == .rateLimited(status: 503, retryAfter: 120))
        live.proxy.set(.forward)
        live.clock.advance(60)
        let waiting = await client.refresh(language: "de")   // even refresh() waits for Retry-After
        guard case .backingOff? = waiting.error else { Issue.record("got \(String(describing: waiting.error))"); return }
        #expect(live.proxy.requests.count == 1)
        live.clock.advance(61)
        #expect(await client.look(language: "de").source == .network)
        #expect(live.proxy.requests.count == 2)
    }

    @Test func backoffAfterFailuresGrowsAndEndsOnSuccess() async throws {
        live.proxy.set(.canned(Array("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)))
        let client = live.client(key)
        #expect(await client.look(language: "de").error == .status(500, code: nil))
        // Jitter 0.5: 2 s · 0.75 = 1.5 s after the first failure; asking again sooner sends nothing.
        _ = await client.look(language: "de")
        #expect(live.proxy.requests.count == 1)
        live.clock.advance(1.6)
        _ = await client.look(language: "de")
        #expect(live.proxy.requests.count == 2)
        live.clock.advance(1.6)   // the second failure's wait is 4 · 0.75 = 3 s
        _ = await client.look(language: "de")
        #expect(live.proxy.requests.count == 2)
        live.proxy.set(.forward)
        live.clock.advance(1.5)
        #expect(await client.look(language: "de").source == .network)
        #expect(Backoff().delay(afterFailures: 20, unit: 1) == 300 && Backoff().delay(afterFailures: 1, unit: 0) == 1)
    }

    @Test func a304ForATagNeverSentIsRefused() async throws {
        live.proxy.set(.canned(Array("HTTP/1.1 304 Not Modified\r\nETag: \"v9-0000000000000000\"\r\nConnection: close\r\n\r\n".utf8)))
        let look = await live.client(key).look(language: "de")
        #expect(look.source == .builtIn && look.error == .unexpectedNotModified)
    }

    @Test func anOlderVersionNeverReplacesANewerOne() async throws {
        let client = live.client(key)
        _ = await client.look(language: "de")
        let v1 = try #require(live.proxy.lastOKResponse)
        try live.publish(key, .object(["corners": .string("square")]), version: 2)
        #expect(await client.refresh(language: "de").version == 2)
        live.proxy.set(.canned(v1))   // a stale CDN edge answers v1 with a 200
        let after = await client.refresh(language: "de")
        #expect(after.version == 2 && after.look.corners.value == .square && after.error == .olderVersion(received: 1, kept: 2))
        #expect(await live.client(key).look(language: "de").version == 2)   // on disk too
    }

    @Test func cancellingTheCallerCancelsTheRequest() async throws {
        live.proxy.set(.stall)
        let client = live.client(key, timeout: 30)
        let task = Task { await client.look(language: "de") }
        #expect(await live.proxy.requestsArrived(1))
        task.cancel()
        let look = await task.value
        #expect(look.source == .builtIn && look.error == .cancelled)
    }

    @Test func clearForgetsTheCache() async throws {
        let client = live.client(key)
        _ = await client.look(language: "de")
        _ = await client.look(language: "ar")
        #expect(live.cacheFiles.count == 2)
        await client.clear()
        #expect(live.cacheFiles.isEmpty)
        #expect(await client.look(language: "de").source == .network && live.proxy.requests.count == 3)
    }
}
