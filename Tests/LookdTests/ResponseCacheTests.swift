import Foundation
import Strings
@testable import LookdServer
import Testing

/// The engine's response cache over the wire: the real routes and services in process, on a real socket, with the
/// cache's own counters telling which path answered.
@Suite("Response cache: SDK fetches answered by the engine", .timeLimit(.minutes(10)))
struct ResponseCacheTests {
    /// The app's services and a started server sharing one response cache.
    final class Fixture: @unchecked Sendable {
        let directory: TemporaryDirectory
        let table: EngineResponseCache
        let responseCache: LookResponseCache
        let metrics = Metrics()
        let services: AppServices
        let server: Server
        let port: UInt16

        /// `prefill`: a publish prefills the cache after answering (the daemon's default; off here, so that a test sees
        /// the fetch's own fill unless it asks).
        init(capacityBytes: Int = 8 << 20, fetchOptions: LookResponse.Options = LookResponse.Options(), prefill: Bool = false) throws {
            table = EngineResponseCache(capacityBytes: capacityBytes, labels: ["/v1/apps/{appKey}/look"], bounds: Metrics.buckets)
            directory = try TemporaryDirectory()
            let store = try SQLiteLookStore(directory: directory.path + "/data", busyTimeoutMilliseconds: 5000)
            var limits = Limits()
            limits.threads = 2
            limits.workerThreads = 2
            metrics.fold(table)
            responseCache = LookResponseCache(engine: table, localizer: InProcessApp.localizer)
            services = AppServices(store: store, metrics: metrics, limits: limits, auth: AdminAuth(token: adminToken),
                                   localizer: InProcessApp.localizer, derived: responseCache)
            server = Server(router: Routes.router(services, responseCache: responseCache, prefill: prefill), limits: limits, metrics: metrics,
                            accessLog: try AccessLog(destination: "off"), responseCache: table, fetchOptions: fetchOptions)
            port = try server.start(host: "127.0.0.1", port: 0)
        }

        deinit {
            server.stop(grace: 0)
            services.closeStore()
        }

        func send(_ method: String, _ target: String, _ headers: [(String, String)] = [], body: [UInt8]? = nil) throws -> HTTPResult {
            var all = headers
            if body != nil { all += [("Authorization", "Bearer \(adminToken)"), ("Content-Type", "application/json")] }
            return try HTTPClient.send(port: port, method: method, target: target, headers: all, body: body)
        }

        /// Requests answered by the cache, as [GET 200, GET 304, HEAD 200, HEAD 304].
        var answered: [UInt64] {
            let counts = table.stats.counts
            return [("GET", 200), ("GET", 304), ("HEAD", 200), ("HEAD", 304)].map { method, status in
                counts.first { $0.method == method && $0.status == status }?.count ?? 0
            }
        }
    }

    /// Status, fields except the per-request ones, and body.
    static func wire(_ result: HTTPResult) -> String {
        let fields = result.headers.filter { !["date", "x-request-id"].contains($0.0.lowercased()) }.map { "\($0.0): \($0.1)" }
        return "\(result.status)\n" + fields.joined(separator: "\n") + "\n\n" + result.text
    }

    @Test func aCachedTargetIsAnsweredByTheEngineWithTheSameBytesAndAPublishInvalidatesIt() throws {
        let app = try Fixture()
        let key = newKey()
        let target = "/v1/apps/\(key)/look?lang=de"
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)

        let bySwift = try app.send("GET", target)
        #expect(bySwift.status == 200)
        #expect(app.answered == [0, 0, 0, 0])
        let byEngine = try app.send("GET", target)
        #expect(app.answered == [1, 0, 0, 0])
        #expect(Self.wire(byEngine) == Self.wire(bySwift))

        // Accept-Language cannot change an answer whose language came from lang=.
        #expect(Self.wire(try app.send("GET", target, [("Accept-Language", "fr")])) == Self.wire(bySwift))
        #expect(app.answered == [2, 0, 0, 0])

        let etag = try #require(bySwift.header("ETag"))
        let notModified = try app.send("GET", target, [("If-None-Match", etag)])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("ETag") == etag)
        #expect(app.answered == [2, 1, 0, 0])

        let head = try app.send("HEAD", target)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(bySwift.body.count))
        #expect(app.answered == [2, 1, 1, 0])

        // A weak or listed tag: the weak comparison over the list (RFC 9110 §13.1.2), in the engine too.
        #expect(try app.send("GET", target, [("If-None-Match", "\"x\", W/\(etag)")]).status == 304)
        #expect(try app.send("GET", target, [("If-None-Match", "*")]).status == 304)
        #expect(try app.send("GET", target, [("If-None-Match", "\"x\"")]).status == 200)
        #expect(app.answered == [3, 3, 1, 0])
        // Other preconditions and ranges are the handler's: not answered by the cache.
        #expect(try app.send("GET", target, [("If-Modified-Since", "Sun, 06 Nov 1994 08:49:37 GMT")]).status == 200)
        #expect(try app.send("GET", target, [("Range", "bytes=0-1")]).status == 200)
        #expect(app.answered == [3, 3, 1, 0])

        // A publish drops the entry before it answers: the very next fetch shows version 2.
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-Match", "\"v1\"")], body: json(["corners": "round"])).status == 200)
        let after = try app.send("GET", target, [("If-None-Match", etag)])
        #expect(after.status == 200)
        #expect(after.header("ETag")?.hasPrefix("\"v2-") == true)
        #expect(after.json["version"] as? Int == 2)
        #expect(app.answered == [3, 3, 1, 0])
        #expect(Self.wire(try app.send("GET", target)) == Self.wire(after))
        #expect(app.answered == [4, 3, 1, 0])

        // The cache's answers are in /metrics with the others, each in the histogram.
        let metrics = app.metrics.render()
        #expect(metrics.contains("lookd_http_requests_total{method=\"GET\",route=\"/v1/apps/{appKey}/look\",status=\"304\"} 3"))
        #expect(metrics.contains("lookd_http_requests_total{method=\"HEAD\",route=\"/v1/apps/{appKey}/look\",status=\"200\"} 1"))
    }

    @Test func withoutLangOrAfterInvalidateAllTheSwiftPathAnswers() throws {
        let app = try Fixture()
        let key = newKey()
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        let path = "/v1/apps/\(key)/look"
        #expect(try app.send("GET", path, [("Accept-Language", "de")]).header("Content-Language") == "de")
        #expect(try app.send("GET", path, [("Accept-Language", "de")]).header("Content-Language") == "de")
        #expect(app.answered == [0, 0, 0, 0])
        #expect(try app.send("GET", path + "?lang=de").status == 200)
        #expect(try app.send("GET", path + "?lang=de").status == 200)
        #expect(app.answered == [1, 0, 0, 0])
        app.services.looks.cache.invalidateAll()
        #expect(try app.send("GET", path + "?lang=de").status == 200)
        #expect(app.answered == [1, 0, 0, 0])
    }

    @Test func theDaemonLogsTheEnginesAnswersLikeTheOthers() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        let key = newKey()
        _ = try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(["corners": "soft"]), admin: true)
        let first = try daemon.get("/v1/apps/\(key)/look?lang=de")
        let second = try daemon.get("/v1/apps/\(key)/look?lang=de")
        let third = try daemon.get("/v1/apps/\(key)/look?lang=de")
        #expect(first.body == second.body && second.body == third.body)
        let metrics = try daemon.get("/metrics").text
        #expect(metrics.contains("lookd_http_requests_total{method=\"GET\",route=\"/v1/apps/{appKey}/look\",status=\"200\"} 3"))
        #expect(daemon.stop() == 0)
        let log = try String(contentsOfFile: directory.path + "/data-logs/access.log", encoding: .utf8)
        let fetches = log.split(separator: "\n").filter { $0.contains("\"method\":\"GET\",\"route\":\"/v1/apps/{appKey}/look\",\"status\":200") }
        #expect(fetches.count == 3)
        for line in fetches {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["bytes"] as? Int == first.body.count)
            #expect((object["request_id"] as? String)?.isEmpty == false)
            #expect(object["duration_ms"] is Double || object["duration_ms"] is Int)
        }
        #expect(!log.contains(key))
    }

    @Test func theFirstFetchOfAnAppFillsEveryLanguageOnceBesideTheSharedPiecesWithTheSwiftPathsBytes() throws {
        let app = try Fixture()
        let key = newKey()
        let layer = json(["appName": "Ledgerly", "replyExpectation": ["en": "Usually replies within an hour", "de": "Antwortet meist innerhalb einer Stunde"],
                          "topics": ["billing", ["id": "export", "label": ["en": "Exports", "ar": "التصدير"], "prefill": "I need help exporting my data."]]])
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: layer).status == 201)
        let first = try app.send("GET", "/v1/apps/\(key)/look?lang=de")
        #expect(app.answered == [0, 0, 0, 0])
        #expect(app.table.usage.entries > 40, "every self-named language filled at once")
        let languages = ["de", "ar", "ja", "pt-BR", "zh-Hant", "en"]
        for (index, lang) in languages.enumerated() {
            // The Swift path's answer for the same language, negotiated from Accept-Language (never the table's).
            let swift = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", lang)])
            #expect(swift.header("Content-Language") == lang)
            let engine = try app.send("GET", "/v1/apps/\(key)/look?lang=\(lang)")
            #expect(app.answered[0] == UInt64(index + 1), "\(lang) is answered by the table without its own first request")
            // The same bytes and tag; the fields differ only as docs/http-api.md says (?lang= named the language).
            #expect(engine.body == swift.body && engine.header("ETag") == swift.header("ETag"), "\(lang)")
            #expect(engine.header("Content-Language") == nil && engine.header("Vary") == "Accept-Encoding, Lookd-Preview")
            let revalidated = try app.send("GET", "/v1/apps/\(key)/look?lang=\(lang)", [("If-None-Match", try #require(swift.header("ETag")))])
            #expect(revalidated.status == 304)
        }
        #expect(app.answered == [UInt64(languages.count), UInt64(languages.count), 0, 0])
        #expect(first.json["direction"] as? String == "ltr")
        #expect(try app.send("GET", "/v1/apps/\(key)/look?lang=ar").json["direction"] as? String == "rtl")
        // The shared pieces are referenced, not copied: well under half of the entries' whole responses.
        #expect(app.table.usage.bytes < app.table.usage.entries * first.body.count / 2)
        #expect(app.table.usage.bytes > first.body.count)
    }

    @Test func aFillWhoseOtherLooksComeOutOfOrderPutsNoLookUnderAnotherLanguagesTarget() throws {
        let app = try Fixture()
        let key = newKey()
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        let german = try app.services.looks.fetch(appKey: key, locale: try #require(LocaleTag("de")), keep: false)
        let prefix = "/v1/apps/\(key)/look?lang="
        // Every look one position late: the first is German, asked for as the first other language.
        app.responseCache.fill(german, target: prefix + "de", label: 0, generation: app.responseCache.generation, options: LookResponse.Options(),
                               targetOf: { prefix + $0.identifier },
                               others: { locales in [german] + app.services.looks.languages(appKey: key, version: german.version, Array(locales.dropLast())) })
        #expect(app.table.usage.entries == 1, "only the asked language's own look is put")
        for lang in ["de", "ar", "fr", "ja", "pt-BR"] {
            #expect(try app.send("GET", prefix + lang).json["locale"] as? String == lang)
        }
        #expect(app.answered == [1, 0, 0, 0], "German from the cache; the others by the route, each in its own language")
    }

    @Test func everyTargetIsItsOwnEntryAndOnlyItsExactBytesAreAnswered() throws {
        let app = try Fixture()
        let key = newKey()
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        let german = try app.send("GET", "/v1/apps/\(key)/look?lang=de-DE")
        #expect(german.json["locale"] as? String == "de")
        #expect(app.answered == [0, 0, 0, 0])
        // Its own target now, and the self-named languages filled with the app's first fetch.
        #expect(Self.wire(try app.send("GET", "/v1/apps/\(key)/look?lang=de-DE")) == Self.wire(german))
        #expect(Self.wire(try app.send("GET", "/v1/apps/\(key)/look?lang=de")) == Self.wire(german))
        #expect(app.answered == [2, 0, 0, 0])
        // Other targets: each answered by the route first.
        for query in ["lang=DE", "lang=de&x=1", "x=1&lang=de"] {
            #expect(try app.send("GET", "/v1/apps/\(key)/look?\(query)").status == 200)
        }
        #expect(app.answered == [2, 0, 0, 0])
        // Accept-Language decides without lang: never from the cache.
        #expect(try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de")]).status == 200)
        #expect(try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", "de")]).status == 200)
        #expect(app.answered == [2, 0, 0, 0])
        // A preview token asks for the draft: never answered from the cache (entries vary on its absence).
        #expect(try app.send("GET", "/v1/apps/\(key)/look?lang=de", [("Lookd-Preview", "not-a-token")]).status != 200)
        #expect(app.answered == [2, 0, 0, 0])
        // An app without a fill is not answered from another's entries.
        #expect(try app.send("GET", "/v1/apps/\(newKey())/look?lang=de").status == 404)
    }

    @Test func overItsCapacityTheCacheEvictsAndTheSwiftPathStillAnswers() throws {
        let capacity = 64 * 2_000
        let app = try Fixture(capacityBytes: capacity)
        let keys = (0..<4).map { _ in newKey() }
        for key in keys {
            #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["appName": "App \(key.suffix(4))"])).status == 201)
        }
        var first: [String: String] = [:]
        for key in keys {
            for lang in ["de", "fr"] { first[key + lang] = Self.wire(try app.send("GET", "/v1/apps/\(key)/look?lang=\(lang)")) }
        }
        #expect(app.table.usage.bytes <= capacity)
        #expect(app.table.usage.entries < keys.count * 50)
        for key in keys.reversed() {
            for lang in ["de", "fr", "ja"] {
                let answer = try app.send("GET", "/v1/apps/\(key)/look?lang=\(lang)")
                if let known = first[key + lang] { #expect(Self.wire(answer) == known) } else { #expect(answer.status == 200) }
            }
        }
        #expect(app.answered[0] > 0)
    }

    // MARK: Prefill on publish

    @Test func aPublishPrefillsEveryLanguageAfterItsAnswerSoEachFirstFetchIsTheEnginesWithTheRoutesBytes() throws {
        let app = try Fixture(prefill: true)
        let key = newKey()
        let prefix = "/v1/apps/\(key)/look?lang="
        let languages = app.responseCache.languages.count
        for (version, corners) in [(1, "square"), (2, "round")] {
            let precondition = version == 1 ? ("If-None-Match", "*") : ("If-Match", "\"v1\"")
            #expect(try app.send("PUT", "/v1/apps/\(key)/look", [precondition], body: json(["corners": corners])).status == (version == 1 ? 201 : 200))
            // The publish dropped the app's entries before answering; its prefill puts the new version's, on a worker.
            #expect(eventually(within: 30) { app.table.usage.entries == languages }, "every language of v\(version) prefilled")
            let before = app.answered[0]
            for (index, lang) in ["de", "ar", "ja", "pt-BR", "zh-Hant"].enumerated() {
                let engine = try app.send("GET", prefix + lang)
                #expect(app.answered[0] == before + UInt64(index + 1), "\(lang) of v\(version) answered by the engine, the route never ran")
                #expect(engine.json["version"] as? Int == version && engine.json["locale"] as? String == lang)
                // The route's answer for the same language (Accept-Language: never the engine's): the same bytes and tag.
                let route = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", lang)])
                #expect(engine.body == route.body && engine.header("ETag") == route.header("ETag"), "\(lang)")
            }
        }
        // A rollback publishes too: version 3 (version 1's layer) prefilled the same way.
        let rollback = try app.send("POST", "/v1/apps/\(key)/look/rollback?to=1", [("If-Match", "\"v2\""), ("Authorization", "Bearer \(adminToken)")])
        #expect(rollback.status == 201)
        #expect(eventually(within: 30) { app.table.usage.entries == languages }, "every language of v3 prefilled")
        let before = app.answered[0]
        let rolledBack = try app.send("GET", prefix + "ja")
        #expect(app.answered[0] == before + 1 && rolledBack.json["version"] as? Int == 3)
        #expect((rolledBack.json["dashboard"] as? [String: Any])?["corners"] as? String == "square")
        // A draft's publish too: version 4.
        #expect(try app.send("PUT", "/v1/apps/\(key)/look/draft", [("If-None-Match", "*")], body: json(["corners": "soft"])).status == 201)
        let published = try app.send("POST", "/v1/apps/\(key)/look/draft/publish", [("If-Match", "\"v3\""), ("Authorization", "Bearer \(adminToken)")])
        #expect(published.status == 200)
        #expect(eventually(within: 30) { app.table.usage.entries == languages }, "every language of v4 prefilled")
        let fromDraft = try app.send("GET", prefix + "ar")
        #expect(app.answered[0] == before + 2 && fromDraft.json["version"] as? Int == 4)
        #expect((fromDraft.json["dashboard"] as? [String: Any])?["corners"] as? String == "soft")
    }

    @Test func aPrefillRacingANewerPublishPutsNothingOfTheOlderVersion() throws {
        let app = try Fixture()   // the test runs each prefill itself
        let table = app.responseCache
        func publish(_ key: String, _ precondition: (String, String), _ corners: String) throws -> Int {
            try app.send("PUT", "/v1/apps/\(key)/look", [precondition], body: json(["corners": corners])).status
        }
        // A newer publish lands after the looks are built, before any is put: none is put.
        let first = newKey()
        #expect(try publish(first, ("If-None-Match", "*"), "square") == 201)
        var raced = 0
        let none = table.prefill(appKey: first, version: 1, label: 0, options: LookResponse.Options(), targetOf: { "/v1/apps/\(first)/look?lang=" + $0.identifier },
                                 looks: { locales in
                                     let built = (try? app.services.looks.prepare(appKey: first, version: 1, locales)) ?? []
                                     raced = (try? publish(first, ("If-Match", "\"v1\""), "round")) ?? 0
                                     return built
                                 },
                                 isCurrent: { app.services.looks.holds(appKey: first, version: 1) })
        #expect(raced == 200 && none == 0 && app.table.usage.entries == 0)
        // A newer publish lands between two puts (asked once before any put, then before each: the eleventh asking is
        // the tenth put's, after it read its purge count): the nine put are purged by it, and nothing more is put.
        let second = newKey()
        #expect(try publish(second, ("If-None-Match", "*"), "square") == 201)
        var asked = 0
        let nine = table.prefill(appKey: second, version: 1, label: 0, options: LookResponse.Options(), targetOf: { "/v1/apps/\(second)/look?lang=" + $0.identifier },
                                 looks: { (try? app.services.looks.prepare(appKey: second, version: 1, $0)) ?? [] },
                                 isCurrent: {
                                     asked += 1
                                     if asked == 11 { raced = (try? publish(second, ("If-Match", "\"v1\""), "round")) ?? 0 }
                                     return app.services.looks.holds(appKey: second, version: 1)
                                 })
        #expect(raced == 200 && nine == 9 && app.table.usage.entries == 0)
        // Every language's fetch answers the second publish's look.
        for key in [first, second] {
            for lang in ["en", "de", "ar", "ja", "pt-BR"] {
                let answer = try app.send("GET", "/v1/apps/\(key)/look?lang=\(lang)")
                #expect(answer.json["version"] as? Int == 2 && answer.header("ETag")?.hasPrefix("\"v2-") == true, "\(lang)")
            }
        }
    }

    @Test func backToBackPublishesLeaveOnlyTheLastVersionsBytesServed() throws {
        let app = try Fixture(prefill: true)
        let key = newKey()
        let prefix = "/v1/apps/\(key)/look?lang="
        let rotation = ["de", "ar", "ja", "fr", "pt-BR", "en", "zh-Hant"]
        var version = 0
        func publish() throws {
            let precondition = version == 0 ? ("If-None-Match", "*") : ("If-Match", "\"v\(version)\"")
            let status = try app.send("PUT", "/v1/apps/\(key)/look", [precondition], body: json(["appName": "App \(version + 1)"])).status
            #expect(status == (version == 0 ? 201 : 200))
            version += 1
        }
        // Two publishes back to back, their prefills racing each other and the fetch after the second's answer.
        for round in 0..<12 {
            try publish()
            try publish()
            let lang = rotation[round % rotation.count]
            let answer = try app.send("GET", prefix + lang)
            #expect(answer.json["version"] as? Int == version && (answer.json["dashboard"] as? [String: Any])?["appName"] as? String == "App \(version)", "round \(round), \(lang)")
        }
        // Once the last version's prefill is in, every language is the engine's and of the last version.
        try publish()
        #expect(eventually(within: 30) { app.table.usage.entries == app.responseCache.languages.count })
        let before = app.answered[0]
        for locale in app.responseCache.languages {
            let answer = try app.send("GET", prefix + locale.identifier)
            #expect(answer.json["version"] as? Int == version && (answer.json["dashboard"] as? [String: Any])?["appName"] as? String == "App \(version)", "\(locale.identifier)")
        }
        #expect(app.answered[0] == before + UInt64(app.responseCache.languages.count))
    }

    @Test func aPrefillWithoutRoomPutsNothingAndTheFetchesStillAnswer() throws {
        /// Prefills `key`'s version 1 in `app`'s cache, as a publish does after answering; returns the entries put.
        func prefill(_ app: Fixture, _ key: String) -> Int {
            app.responseCache.prefill(appKey: key, version: 1, label: 0, options: LookResponse.Options(), targetOf: { "/v1/apps/\(key)/look?lang=" + $0.identifier },
                                      looks: { (try? app.services.looks.prepare(appKey: key, version: 1, $0)) ?? [] },
                                      isCurrent: { app.services.looks.holds(appKey: key, version: 1) })
        }
        // Room for one app's every language (50 estimated at 1 KiB each: 51,200 bytes of 57,344), not for a second.
        let app = try Fixture(capacityBytes: 56 << 10)
        let (roomy, crowded) = (newKey(), newKey())
        for key in [roomy, crowded] {
            #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        }
        #expect(prefill(app, roomy) == app.responseCache.languages.count)
        let held = app.table.usage
        #expect(held.entries > 0 && app.responseCache.heldVersions()?[roomy] == 1)
        #expect(prefill(app, crowded) == 0)
        #expect(app.table.usage.entries == held.entries && app.responseCache.heldVersions()?[crowded] == nil)
        for lang in ["de", "ja"] {
            let answer = try app.send("GET", "/v1/apps/\(crowded)/look?lang=\(lang)")
            #expect(answer.status == 200 && answer.json["version"] as? Int == 1 && answer.json["locale"] as? String == lang)
        }
        // A cache too small for any app, its publishes prefilling: nothing is put, and the fetch answers from the route.
        let tiny = try Fixture(capacityBytes: 16 << 10, prefill: true)
        let key = newKey()
        #expect(try tiny.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "soft"])).status == 201)
        #expect(prefill(tiny, key) == 0 && tiny.table.usage.entries == 0)
        let answer = try tiny.send("GET", "/v1/apps/\(key)/look?lang=de")
        #expect(answer.status == 200 && answer.json["version"] as? Int == 1)
    }

    // MARK: Prefill at start

    @Test func aStartPrefillPutsEveryAppsCurrentVersionPageByPageAndItsFetchesAreTheEnginesWithTheRoutesBytes() throws {
        let app = try Fixture()   // publishes do not prefill here: the cache is empty, as after a restart
        let keys = (0..<3).map { _ in newKey() }
        for key in keys {
            #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        }
        #expect(try app.send("PUT", "/v1/apps/\(keys[2])/look", [("If-Match", "\"v1\"")], body: json(["corners": "round"])).status == 200)
        #expect(app.table.usage.entries == 0)
        // One key a page: the store is listed three times, then once more to find nothing after the last key.
        let prefill = StartupPrefill(cache: app.responseCache, services: app.services, options: LookResponse.Options(), pageSize: 1)
        prefill.start()
        #expect(prefill.wait(timeout: 60) && prefill.appsPrefilled == 3)
        let languages = app.responseCache.languages.count
        #expect(app.table.usage.entries == 3 * languages)
        #expect(app.responseCache.heldVersions()?[keys[0]] == 1 && app.responseCache.heldVersions()?[keys[2]] == 2)
        for (key, version, corners) in [(keys[0], 1, "square"), (keys[2], 2, "round")] {
            for lang in ["de", "ar", "zh-Hant"] {
                let before = app.answered[0]
                let engine = try app.send("GET", "/v1/apps/\(key)/look?lang=\(lang)")
                #expect(app.answered[0] == before + 1, "\(lang) of v\(version) answered by the engine, the route never ran")
                #expect(engine.json["version"] as? Int == version && engine.json["locale"] as? String == lang)
                #expect((engine.json["dashboard"] as? [String: Any])?["corners"] as? String == corners)
                // The route's answer for the same language (Accept-Language: never the engine's): the same bytes and tag.
                let route = try app.send("GET", "/v1/apps/\(key)/look", [("Accept-Language", lang)])
                #expect(engine.body == route.body && engine.header("ETag") == route.header("ETag"), "\(lang)")
            }
        }
    }

    @Test func aStartPrefillEndsWhenTheCacheHasNoRoomForAnotherApp() throws {
        // Room for one app's every language (50 estimated at 1 KiB each: 51,200 bytes of 57,344), not for a second.
        let app = try Fixture(capacityBytes: 56 << 10)
        let keys = (0..<3).map { _ in newKey() }.sorted()
        for key in keys {
            #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        }
        let prefill = StartupPrefill(cache: app.responseCache, services: app.services, options: LookResponse.Options(), pageSize: 2)
        prefill.start()
        #expect(prefill.wait(timeout: 60) && prefill.appsPrefilled == 1)
        // The first key in order is the one put; the others' fetches answer from the route.
        #expect(app.responseCache.heldVersions()?[keys[0]] == 1 && app.responseCache.heldVersions()?[keys[1]] == nil)
        let answer = try app.send("GET", "/v1/apps/\(keys[2])/look?lang=ja")
        #expect(answer.status == 200 && answer.json["version"] as? Int == 1 && answer.json["locale"] as? String == "ja")
    }

    @Test func aRestartedDaemonPrefillsEveryPublishedAppUnlessToldNotTo() throws {
        let directory = try TemporaryDirectory()
        let data = directory.path + "/data"
        let key = newKey()
        let first = try Daemon(data: data)
        #expect(try first.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(["corners": "soft"]), admin: true).status == 201)
        #expect(first.stop() == 0)

        let restarted = try Daemon(data: data)
        #expect(eventually(within: 60) { restarted.log.contains("lookd: prefilled 1 app(s) at start") }, "\(restarted.log)")
        let warm = try restarted.get("/v1/apps/\(key)/look?lang=ja")
        #expect(warm.status == 200 && warm.json["version"] as? Int == 1 && warm.json["locale"] as? String == "ja")
        // The engine answered: the route's look cache was never asked.
        #expect(try restarted.get("/metrics").text.contains("\nlookd_look_cache_misses_total 0\n"))
        #expect(restarted.stop() == 0)

        let cold = try Daemon(data: data, arguments: ["--no-prefill"])
        let fetched = try cold.get("/v1/apps/\(key)/look?lang=ja")
        #expect(fetched.body == warm.body)
        #expect(try cold.get("/metrics").text.contains("\nlookd_look_cache_misses_total 1\n"), "the route built it")
        #expect(cold.stop() == 0)
        #expect(!cold.log.contains("prefilled"))
    }

    @Test func aPublishOfAnAppWithoutEntriesWalksNoneYetRefusesItsFillInFlight() throws {
        let app = try Fixture()
        let (other, key) = (newKey(), newKey())
        for name in [other, key] {
            #expect(try app.send("PUT", "/v1/apps/\(name)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        }
        #expect(try app.send("GET", "/v1/apps/\(other)/look?lang=de").status == 200)
        let held = app.table.usage.entries
        #expect(held == app.responseCache.languages.count)
        // A fill of `key` read the purge count and its look (v1); a publish (v2) drops `key`, which has no entry yet.
        let generation = app.responseCache.generation
        let stale = try app.services.looks.fetch(appKey: key, locale: try #require(LocaleTag("de")), keep: false)
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-Match", "\"v1\"")], body: json(["corners": "round"])).status == 200)
        let prefix = "/v1/apps/\(key)/look?lang="
        app.responseCache.fill(stale, target: prefix + "de", label: 0, generation: generation, options: LookResponse.Options(),
                               targetOf: { prefix + $0.identifier }, others: { app.services.looks.languages(appKey: key, version: stale.version, $0) })
        #expect(app.table.usage.entries == held, "the fill that read the count before the drop put nothing; the other app's entries stay")
        #expect(try app.send("GET", prefix + "de").json["version"] as? Int == 2)
        #expect(app.answered == [0, 0, 0, 0])
    }
}
