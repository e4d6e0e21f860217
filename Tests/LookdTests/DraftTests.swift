import Foundation
@testable import LookdServer
import Testing

@Suite("Drafts: save, read, delete, publish; never served by the fetch; kept by both stores", .timeLimit(.minutes(10)))
struct DraftTests {
    @Test("the draft's lifecycle over the routes, with its own versions")
    func lifecycle() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true)
        let path = "/v1/apps/\(key)/look/draft"
        #expect(try daemon.get(path, admin: true).errorCode == "draft_unknown")
        #expect(try daemon.request("PUT", path, body: json(["accent": "#FF2D55"]), admin: true).errorCode == "precondition_required")
        #expect(try daemon.request("PUT", path, headers: [("If-None-Match", "*")], body: json(["accent": "#FF2D55"])).errorCode == "unauthorized")

        let created = try daemon.request("PUT", path, headers: [("If-None-Match", "*")], body: json(["accent": "#FF2D55"]), admin: true)
        #expect(created.status == 201 && created.header("ETag") == "\"d1\"")
        #expect(created.header("Cache-Control") == "private, no-store")
        let again = try daemon.request("PUT", path, headers: [("If-None-Match", "*")], body: json(["accent": "#000000"]), admin: true)
        #expect(again.status == 412 && again.errorCode == "draft_conflict" && again.header("ETag") == "\"d1\"")
        #expect(try daemon.request("PUT", path, headers: [("If-Match", "\"v1\"")], body: json(["accent": "#000000"]), admin: true).errorCode == "precondition_invalid")
        let invalid = try daemon.request("PUT", path, headers: [("If-Match", "\"d1\"")], body: json(["accent": "red"]), admin: true)
        #expect(invalid.status == 422 && invalid.errorCode == "look_invalid")
        let updated = try daemon.request("PUT", path, headers: [("If-Match", "\"d1\"")], body: json(["accent": "#FF2D55", "corners": "square"]), admin: true)
        #expect(updated.status == 200 && updated.header("ETag") == "\"d2\"")

        let read = try daemon.get(path, admin: true)
        #expect(read.status == 200 && (read.json["layer"] as? [String: Any])?["corners"] as? String == "square")
        #expect(try daemon.get(path).errorCode == "unauthorized")

        // Never served by the SDK fetch, nor its report without the token.
        #expect(try daemon.get("/v1/apps/\(key)/look").errorCode == "app_unknown")
        #expect(try daemon.get("/v1/apps/\(key)/look/report?draft=true").errorCode == "unauthorized")
        let report = try daemon.get("/v1/apps/\(key)/look/report?draft=true", admin: true)
        #expect(report.status == 200 && report.json["draft"] as? Bool == true && report.json["version"] as? Int == 2)

        // Publish: the precondition is on the LIVE version.
        #expect(try daemon.request("POST", path + "/publish", admin: true).errorCode == "precondition_required")
        #expect(try daemon.request("POST", path + "/publish", headers: [("If-Match", "\"v1\"")], admin: true).errorCode == "version_conflict")
        let published = try daemon.request("POST", path + "/publish", headers: [("If-None-Match", "*")], admin: true)
        #expect(published.status == 201 && published.json["version"] as? Int == 1)
        let fetched = try daemon.get("/v1/apps/\(key)/look")
        #expect(fetched.status == 200 && (fetched.json["dashboard"] as? [String: Any])?["corners"] as? String == "square")
        #expect(try daemon.get(path, admin: true).errorCode == "draft_unknown", "a published draft is gone")
        #expect(try daemon.request("POST", path + "/publish", headers: [("If-Match", "\"v1\"")], admin: true).errorCode == "draft_unknown")

        // A new draft never reuses a version (a token for d2 can never name it).
        let next = try daemon.request("PUT", path, headers: [("If-None-Match", "*")], body: json(["font": "serif"]), admin: true)
        #expect(next.status == 201 && next.header("ETag") == "\"d4\"")
        #expect(try daemon.request("DELETE", path, headers: [("If-Match", "\"d2\"")], admin: true).errorCode == "draft_conflict")
        #expect(try daemon.request("DELETE", path, headers: [("If-Match", "\"d4\"")], admin: true).status == 204)
        #expect(try daemon.request("DELETE", path, admin: true).errorCode == "draft_unknown")
        // The live look is untouched by the draft's deletion.
        #expect(try daemon.get("/v1/apps/\(key)/look").status == 200)
    }

    /// The same scenario against a store, closed and opened again between steps.
    static func survivesRestart(open: () throws -> any LookStore) throws {
        let key = newKey(test: true)
        /// One daemon's life: the store opened, used, closed and released (SQLite's directory lock goes with it).
        func run(_ body: (any LookStore) throws -> Void) throws {
            let store = try open()
            defer { store.close() }
            try body(store)
        }
        try run { store in
            let saved = try store.saveDraft(appKey: key, layer: ##"{"accent":"#FF2D55"}"##, expected: DraftExpectation.none)
            #expect(saved.version == 1)
        }
        try run { store in
            #expect(try store.draftRow(appKey: key)?.layer == ##"{"accent":"#FF2D55"}"##)
            #expect(throws: DraftConflict.self) { try store.saveDraft(appKey: key, layer: "{}", expected: .version(7)) }
            // A publish whose live precondition fails writes nothing: the draft stays, no version appears.
            #expect(throws: PublishConflict.self) { try store.publishDraft(appKey: key, expected: .version(3)) }
            #expect(try store.draftRow(appKey: key)?.version == 1)
            #expect(try store.current(appKey: key) == nil)
            #expect(try store.changes(after: 0, limit: 100).events.filter { $0.appKey == key }.isEmpty, "nor any change event")
            #expect(try store.revokePreviewTokens(appKey: key).tokenEpoch == 1)
            let published = try store.publishDraft(appKey: key, expected: .newApp)
            #expect(published.version == 1 && published.layer == ##"{"accent":"#FF2D55"}"##)
        }
        try run { store in
            let row = try store.draftRow(appKey: key)
            #expect(row?.layer == nil && row?.version == 2 && row?.tokenEpoch == 1)
            #expect(try store.current(appKey: key)?.version == 1)
            // The publish wrote its change event with the version, in the same transaction (both or neither).
            let events = try store.changes(after: 0, limit: 100).events.filter { $0.appKey == key }
            #expect(events.map(\.version) == [1] && events.first?.kind == .publish && events.first?.etag == "\"v1\"")
            #expect(throws: DraftMissing.self) { try store.deleteDraft(appKey: key, expected: nil) }
        }
    }

    @Test("SQLite keeps drafts across restarts")
    func sqlite() throws {
        let directory = try TemporaryDirectory()
        try Self.survivesRestart { try SQLiteLookStore(directory: directory.path + "/data") }
    }

    @Test("PostgreSQL keeps drafts across restarts", .enabled(if: postgresBinariesPresent, postgresSkipReason))
    func postgres() throws {
        let uri = try PostgresCluster.get().createDatabase()
        try Self.survivesRestart {
            try PostgresLookStore(uri: uri, displayLocation: "postgresql://test", secrets: [], connections: 2,
                                  statementTimeoutMilliseconds: 5000, statistics: StoreStatistics())
        }
    }
}
