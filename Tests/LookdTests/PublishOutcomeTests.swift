import Locking
import Foundation
import Synchronization
import Testing
import TestPrograms

#if canImport(Glibc)
import Glibc
#endif

/// Runs `sql` with psql on the database of `uri` (as the cluster's superuser) and returns its unaligned output.
func psql(_ uri: String, _ sql: String) throws -> String {
    let (status, output, errors) = try runProgram("/usr/bin/psql", ["-qAt", "-v", "ON_ERROR_STOP=1", "-c", sql, uri])
    guard status == 0 else { throw HarnessError("psql failed: \(sql): \(errors)") }
    return output.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Runs `body` on a thread of its own; the returned function waits for its result (at most 120 s, then throws).
func inBackground<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> () throws -> T {
    let result = LockedValue<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        let outcome = Result { try body() }
        result.withLock { $0 = outcome }
        done.signal()
    }
    return {
        guard done.wait(timeout: .now() + 120) == .success else { throw HarnessError("the background work did not finish within 120 s") }
        return try result.withLock { $0! }.get()
    }
}

extension PostgresStoreTests {
    /// The server process of `uri`'s database that waits on `waitEvent` (a `pg_stat_activity.wait_event`), once one does.
    static func backend(waitingOn waitEvent: String, _ uri: String) throws -> String {
        var pid = ""
        _ = try eventually(within: 10) {
            pid = try psql(uri, "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event = '\(waitEvent)' LIMIT 1")
            return !pid.isEmpty
        }
        guard !pid.isEmpty else { throw HarnessError("no backend waited on \(waitEvent)") }
        return pid
    }

    /// Issue #27 row 7: `pg_terminate_backend` of lookd's session during a publish. A COMMIT that is durable on the
    /// primary but waiting for a synchronous standby (`synchronous_standby_names` naming one that never connects) is
    /// the window where the version is stored but the session dies before it says so. What each answer must say:
    /// the truth when it can be read back, `publish_outcome_unknown` when it cannot, and `store_unavailable`
    /// ("nothing was published") only when nothing was.
    @Test func aPublishWhoseSessionIsTerminatedAnswersWhatTheDatabaseHolds() throws {
        let logs = try TemporaryDirectory()
        let (uri, replicas) = try Self.replicas(1, logs: logs)
        let replica = replicas[0]
        let key = try newAppKey()
        let history = { try replica.get("/v1/apps/\(key)/look/history?limit=10", admin: true) }
        _ = try psql(uri, "ALTER SYSTEM SET synchronous_standby_names = 'nobody'")
        _ = try psql(uri, "SELECT pg_reload_conf()")
        var reset = false
        defer {
            if !reset {
                _ = try? psql(uri, "ALTER SYSTEM RESET synchronous_standby_names")
                _ = try? psql(uri, "SELECT pg_reload_conf()")
            }
        }

        // 1. Committed on the primary, never replicated, and nothing will settle it within the read-back's 5 s.
        let first = inBackground { try replica.publish(key, after: 0, name: "v1") }
        #expect(try psql(uri, "SELECT pg_terminate_backend(\(try Self.backend(waitingOn: "SyncRep", uri)))") == "t")
        let unknown = try first()
        #expect(unknown.status == 503)
        #expect(unknown.errorCode == "publish_outcome_unknown", "the version is on the primary: \"nothing was published\" would be a lie")
        #expect(unknown.header("Retry-After") != nil)
        #expect(try history().json["currentVersion"] as? Int == 1, "the client re-reads, as the docs say, and finds v1")

        // 2. The same, then the standby requirement is lifted (as a standby catching up would): read back, it is v2.
        let second = inBackground { try replica.publish(key, after: 1, name: "v2") }
        #expect(try psql(uri, "SELECT pg_terminate_backend(\(try Self.backend(waitingOn: "SyncRep", uri)))") == "t")
        _ = try psql(uri, "ALTER SYSTEM RESET synchronous_standby_names")
        _ = try psql(uri, "SELECT pg_reload_conf()")
        reset = true
        let settled = try second()
        #expect(settled.status == 200, "\(settled.status) \(settled.text)")
        #expect(settled.json["version"] as? Int == 2)

        // 3. Terminated before COMMIT (waiting for the app's row lock, held by another session): nothing stored.
        let locker = try ChildProgram("/usr/bin/psql", ["-q", "-v", "ON_ERROR_STOP=1", uri], input: true)
        defer {
            locker.closeInput()
            if locker.wait(within: 60) == nil { locker.killAndReap() }
        }
        try locker.writeInput("BEGIN;\nSELECT 1 FROM apps WHERE app_key = '\(key)' FOR UPDATE;\n")
        #expect(try eventually(within: 10) {   // the locker holds the lock
            try psql(uri, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'") == "1"
        })
        let third = inBackground { try replica.publish(key, after: 2, name: "v3") }
        #expect(try psql(uri, "SELECT pg_terminate_backend(\(try Self.backend(waitingOn: "transactionid", uri)))") == "t")
        let refused = try third()
        #expect(refused.status == 503)
        #expect(refused.errorCode == "store_unavailable")
        try locker.writeInput("ROLLBACK;\n")
        let versions = try history()
        #expect(versions.json["currentVersion"] as? Int == 2, "nothing was published, as the answer said")
        #expect(try replica.publish(key, after: 2, name: "v3").status == 200)
    }
}
