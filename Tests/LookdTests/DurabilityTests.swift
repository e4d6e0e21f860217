import CSQLite
@testable import LookdServer
import Foundation
import Testing
import TestPrograms

@Suite("Store durability: restart, kill -9", .timeLimit(.minutes(10)))
struct DurabilityTests {
    @Test func restartKeepsPublishedLooks() throws {
        let directory = try TemporaryDirectory()
        let key = try newAppKey()
        let path = "/v1/apps/\(key)/look"
        let before: HTTPResult
        do {
            let daemon = try Daemon(data: directory.path + "/data")
            #expect(try daemon.request("PUT", path, headers: [("If-None-Match", "*")], body: json(["appName": "Ledgerly"]), admin: true).status == 201)
            #expect(try daemon.request("PUT", path, headers: [("If-Match", "\"v1\"")], body: json(["appName": "Ledgerly Plus"]), admin: true).status == 200)
            before = try daemon.get(path)
            #expect(daemon.stop() == 0)
        }
        let restarted = try Daemon(data: directory.path + "/data")
        let after = try restarted.get(path)
        #expect(after.status == 200)
        #expect(after.body == before.body)
        #expect(after.header("ETag") == before.header("ETag"))
        #expect(try restarted.get(path + "/history", admin: true).json["currentVersion"] as? Int == 2)
    }

    @Test func killNineDuringABurstOfPublishesKeepsEveryAcknowledgedVersion() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        let keys = try (0..<4).map { _ in try newAppKey() }
        let expected = daemon.killNineDuringPublishBurst(keys: keys)
        let restarted = try Daemon(data: directory.path + "/data")
        #expect(expected.values.reduce(0, +) >= 40)
        for (key, version) in expected {
            let history = try restarted.get("/v1/apps/\(key)/look/history?limit=1000", admin: true)
            let current = try #require(history.json["currentVersion"] as? Int)
            #expect(current >= version, "acknowledged v\(version), found v\(current)")
            let versions = (history.json["versions"] as? [[String: Any]] ?? []).compactMap { $0["version"] as? Int }
            #expect(Set(1...version).isSubset(of: Set(versions)))
            for entry in history.json["versions"] as? [[String: Any]] ?? [] {
                let layer = entry["layer"] as? [String: Any]
                #expect(layer?["appName"] as? String == "app \(keys.firstIndex(of: key)!) v\(entry["version"] as? Int ?? -1)")
            }
            let fetched = try restarted.get("/v1/apps/\(key)/look")
            #expect(fetched.json["version"] as? Int == current)
        }
    }
}

@Suite("Store errors", .timeLimit(.minutes(10)))
struct StoreErrorTests {
    @Test func lockedDatabaseAnswers503WithRetryAfterAndRecovers() throws {
        let daemon = try InProcessApp(storeBusyTimeoutMilliseconds: 100)
        let directory = daemon.directory
        let key = newKey()
        let path = "/v1/apps/\(key)/look"
        #expect(try daemon.request("PUT", path, headers: [("If-None-Match", "*")], body: json(["corners": "soft"]), admin: true).status == 201)

        // Another connection takes the write lock, as a stuck backup or a second writer would.
        var db: OpaquePointer?
        #expect(sqlite3_open(directory.path + "/data/looks.sqlite3", &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        // The daemon may still be finishing a write of its own (the publish's change-feed event, a WAL
        // checkpoint); wait for it rather than fail on SQLITE_BUSY, as any second writer would.
        sqlite3_busy_timeout(db, 10_000)
        try #require(sqlite3_exec(db, "BEGIN EXCLUSIVE", nil, nil, nil) == SQLITE_OK)
        let busy = try daemon.request("PUT", path, headers: [("If-Match", "\"v1\"")], body: json(["corners": "round"]), admin: true)
        #expect(busy.status == 503)
        #expect(busy.errorCode == "store_unavailable")
        #expect(busy.header("Retry-After") == "1")
        #expect(try daemon.get(path).status == 200)   // reads still answer (WAL, cached)
        // The refused publish is counted; a background store task of the daemon's own (the change feed's or the
        // webhooks' bookkeeping) may also have met the lock in that moment and be counted too.
        let errors = daemon.services.metrics.render().split(separator: "\n").first { $0.hasPrefix("lookd_store_errors_total ") }
        #expect((errors.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0) >= 1)
        #expect(sqlite3_exec(db, "ROLLBACK", nil, nil, nil) == SQLITE_OK)

        let retried = try daemon.request("PUT", path, headers: [("If-Match", "\"v1\"")], body: json(["corners": "round"]), admin: true)
        #expect(retried.status == 200)
        #expect(retried.json["version"] as? Int == 2)
    }
}
