@testable import LookdServer
import Synchronization
import Testing

/// A failing store is answered by the services' domain errors, mapped to HTTP in one place (`ErrorResponses.swift`):
/// no route guards its store calls, so every route that reaches the store must answer 503 with `Retry-After` and a
/// stable code, never a 500, and every failure is counted once.
@Suite("Store failures: every store-backed route answers 503 without a route-level guard", .timeLimit(.minutes(10)))
struct StoreFailureRouteTests {
    /// An in-process app over a store the test can make fail, with one published app, its draft and a preview token.
    private struct Fixture {
        let app: InProcessApp
        let store: FeedControlledStore
        let key: String
        let token: String

        init() throws {
            let opened = Box<FeedControlledStore>()
            app = try InProcessApp(feedToken: feedToken) { path in
                let store = try FeedControlledStore(directory: path)
                opened.value = store
                return store
            }
            store = try #require(opened.value)
            key = newKey()
            let look = "/v1/apps/\(key)/look"
            try #require(try app.request("PUT", look, headers: [("If-None-Match", "*")], body: json(["corners": "soft"]), admin: true).status == 201)
            try #require(try app.request("PUT", look + "/draft", headers: [("If-None-Match", "*")], body: json(["corners": "round"]), admin: true).status == 201)
            let minted = try app.request("POST", look + "/draft/preview-tokens", admin: true)
            try #require(minted.status == 201)
            token = try #require(minted.json["token"] as? String)
        }
    }

    /// A box so the store the app opens can be handed back to the test (set once, before any thread reads it).
    private final class Box<T>: @unchecked Sendable {
        var value: T?
    }

    @Test func everyStoreBackedRouteAnswers503StoreUnavailableWithRetryAfter() throws {
        let fixture = try Fixture()
        let (app, key, token) = (fixture.app, fixture.key, fixture.token)
        let look = "/v1/apps/\(key)/look"
        let feed = [("Authorization", "Bearer \(feedToken)")]
        // (method, target, headers, body, admin): every route whose handler reads or writes the store.
        let requests: [(String, String, [(String, String)], [UInt8]?, Bool)] = [
            ("GET", "/readyz", [], nil, false),
            ("GET", "/v1/apps/\(newKey())/look", [], nil, false),
            ("GET", look + "?preview=\(token)", [], nil, false),
            ("PUT", look, [("If-Match", "\"v1\"")], json(["corners": "square"]), true),
            ("GET", look + "/history", [], nil, true),
            ("POST", look + "/rollback?to=1", [], nil, true),
            ("GET", look + "/draft", [], nil, true),
            ("PUT", look + "/draft", [("If-Match", "\"d1\"")], json(["corners": "square"]), true),
            ("DELETE", look + "/draft", [], nil, true),
            ("POST", look + "/draft/publish", [("If-Match", "\"v1\"")], nil, true),
            ("POST", look + "/draft/preview-tokens", [], nil, true),
            ("DELETE", look + "/draft/preview-tokens", [], nil, true),
            ("GET", look + "/report", [], nil, false),
            ("GET", look + "/report?draft=true", [], nil, true),
            ("GET", "/v1/preview?app=\(key)", [], nil, false),
            ("GET", "/v1/preview?app=\(key)&preview=\(token)", [], nil, false),
            ("GET", "/v1/preview/matrix?app=\(key)", [], nil, false),
            ("GET", "/v1/preview/matrix?app=\(key)&preview=\(token)", [], nil, false),
            ("GET", "/v1/changes", feed, nil, false),
        ]
        fixture.store.failing.store(true, ordering: .relaxed)
        for (method, target, headers, body, admin) in requests {
            // Each failure is counted. (At least once: a background store task of the app, a change-feed revalidation
            // say, may meet the failing store in the same moment and be counted too; a full CI run saw 20 for 19.)
            let before = app.services.metrics.storeErrors.load(ordering: .relaxed)
            let answer = try app.request(method, target, headers: headers, body: body, admin: admin)
            #expect(app.services.metrics.storeErrors.load(ordering: .relaxed) > before, "\(method) \(target): the failure is counted")
            #expect(answer.status == 503, "\(method) \(target): \(answer.status) \(answer.text)")
            #expect(answer.errorCode == "store_unavailable", "\(method) \(target)")
            #expect(answer.header("Retry-After") == "1", "\(method) \(target)")
            #expect(!answer.text.contains("08006") && !answer.text.contains("no primary"), "the store's own text stays in the log")
        }

        // The store is back: the same routes answer again without a restart.
        fixture.store.failing.store(false, ordering: .relaxed)
        #expect(try app.get("/readyz").status == 200)
        #expect(try app.get(look + "/history", admin: true).status == 200)
    }

    @Test func aPublishWhoseOutcomeIsUnknownAnswers503PublishOutcomeUnknown() throws {
        let fixture = try Fixture()
        let look = "/v1/apps/\(fixture.key)/look"
        fixture.store.commitLost.store(true, ordering: .relaxed)
        for (method, target, body) in [("PUT", look, json(["corners": "square"])), ("POST", look + "/rollback?to=1", nil)] as [(String, String, [UInt8]?)] {
            let answer = try fixture.app.request(method, target, headers: [("If-Match", "\"v1\"")], body: body, admin: true)
            #expect(answer.status == 503, "\(method) \(target): \(answer.status) \(answer.text)")
            #expect(answer.errorCode == "publish_outcome_unknown", "\(method) \(target)")
            #expect(answer.header("Retry-After") == "1", "\(method) \(target)")
        }
    }

    /// The services themselves throw domain errors: a caller of a service never sees the store's `StoreError`.
    @Test func servicesThrowDomainErrorsNotStoreErrors() throws {
        let fixture = try Fixture()
        fixture.store.failing.store(true, ordering: .relaxed)
        let looks = fixture.app.services.looks
        #expect(throws: StoreUnavailableError.self) { try looks.history(appKey: fixture.key, limit: 1) }
        #expect(throws: StoreUnavailableError.self) { try looks.draft(appKey: fixture.key) }
        #expect(throws: StoreUnavailableError.self) { try fixture.app.services.changes.page(after: nil, limit: 1) }
        #expect(throws: StoreUnavailableError.self) { try fixture.app.services.ready() }
    }
}
