import Foundation
import Locking
import Testing
import TestPrograms

#if canImport(Glibc)
import Glibc
#endif

/// `lookd serve --store postgresql://…` replicas over one real PostgreSQL (the run's `PostgresCluster`),
/// driven over HTTP. Serialized: the outage test stops the shared server.
@Suite("PostgreSQL store: replicas, races, outage, kill -9, copy", .serialized, .ownThread, .enabled(if: postgresBinariesPresent, postgresSkipReason), .timeLimit(.minutes(10)))
struct PostgresStoreTests {
    static let password = "Pw-never-in-logs-4c1f"

    /// `count` replicas over a new database, whose URI (with `password`) is returned too.
    static func replicas(_ count: Int, logs: TemporaryDirectory, extra: [String] = []) throws -> (String, [Daemon]) {
        let uri = try PostgresCluster.get().createDatabase(password: password)
        let started = try (0..<count).map { index in
            try Daemon(data: logs.path + "/replica\(index)", store: uri, arguments: extra)
        }
        return (uri, started)
    }

    /// Waits until `replica` has received at least `count` change notifications (its own publishes' too: a
    /// replica that cached a look before its own publish's notification arrived drops it again then). Returns
    /// whether it did within 10 s.
    static func heard(_ replica: Daemon, _ count: Int) throws -> Bool {
        try eventually(within: 10) {
            let line = try replica.get("/metrics").text.split(separator: "\n").first { $0.hasPrefix("lookd_store_notifications_total ") }
            return (line?.split(separator: " ").last.flatMap { Int($0) } ?? 0) >= count
        }
    }

    @Test func aPublishOnOneReplicaIsServedByEveryReplicaWithinOneSecond() throws {
        let logs = try TemporaryDirectory()
        let (_, replicas) = try Self.replicas(3, logs: logs)
        let key = try newAppKey()
        let path = "/v1/apps/\(key)/look"
        #expect(try replicas[0].publish(key, after: 0, name: "Ledgerly").status == 201)
        for replica in replicas {
            for lang in ["en", "de", "ar"] {   // every replica caches v1 in three languages
                #expect(try replica.get(path + "?lang=\(lang)").json["version"] as? Int == 1)
            }
        }
        for round in 2...4 {
            let publisher = replicas[round % 3]
            #expect(try publisher.publish(key, after: round - 1, name: "Ledgerly \(round)").status == 200)
            for replica in replicas {
                let served = try eventually(within: 1) {
                    let answer = try replica.get(path + "?lang=de")
                    return answer.json["version"] as? Int == round && (answer.json["dashboard"] as? [String: Any])?["appName"] as? String == "Ledgerly \(round)"
                }
                #expect(served, "replica on port \(replica.port) still served an older version 1 s after v\(round) was published")
            }
        }
        let bodies = try replicas.map { try $0.get(path + "?lang=ar") }
        #expect(Set(bodies.map(\.body)).count == 1, "every replica serves the same bytes")
        #expect(Set(bodies.compactMap { $0.header("ETag") }).count == 1)
        #expect(try replicas[1].get("/metrics").text.contains("lookd_store_notifications_total 0") == false)
    }

    @Test func racingPublishesWithTheSameIfMatchGiveExactlyOneSuccess() throws {
        let logs = try TemporaryDirectory()
        let (_, replicas) = try Self.replicas(3, logs: logs)
        let key = try newAppKey()
        #expect(try replicas[0].publish(key, after: 0, name: "v1").status == 201)
        for round in 1...5 {
            let statuses = LockedValue<[Int]>([])
            let group = DispatchGroup()
            let start = DispatchSemaphore(value: 0)
            for (index, replica) in replicas.enumerated() {
                DispatchQueue.global().async(group: group) {
                    start.wait()
                    let status = (try? replica.publish(key, after: round, name: "round \(round) by \(index)").status) ?? 0
                    statuses.withLock { $0.append(status) }
                }
            }
            for _ in replicas { start.signal() }
            group.wait()
            let seen = statuses.withLock { $0 }.sorted()
            #expect(seen == [200, 412, 412], "round \(round): \(seen)")
        }
        let history = try replicas[2].get("/v1/apps/\(key)/look/history", admin: true)
        #expect(history.json["currentVersion"] as? Int == 6)
        #expect((history.json["versions"] as? [[String: Any]])?.count == 6)
    }

    @Test func duringADatabaseOutageCachedLooksAreServedAndEverythingElseAnswers503ThenItRecovers() throws {
        let logs = try TemporaryDirectory()
        // --no-prefill: a publish's prefill would keep `uncached` in the publishing replica's memory, served in the outage.
        let (_, replicas) = try Self.replicas(2, logs: logs, extra: ["--no-prefill"])
        let cached = try newAppKey(), uncached = try newAppKey()
        #expect(try replicas[0].publish(cached, after: 0, name: "Cached").status == 201)
        #expect(try replicas[0].publish(uncached, after: 0, name: "Uncached").status == 201)
        for replica in replicas { #expect(try Self.heard(replica, 2)) }
        let before = try replicas.map { try $0.get("/v1/apps/\(cached)/look?lang=de") }
        let cluster = try PostgresCluster.get()

        try cluster.stopServer()
        var restarted = false
        defer { if !restarted { try? cluster.startServer() } }
        for (replica, earlier) in zip(replicas, before) {
            let served = try replica.get("/v1/apps/\(cached)/look?lang=de")
            #expect(served.status == 200)
            #expect(served.body == earlier.body)
            let miss = try replica.get("/v1/apps/\(uncached)/look")
            #expect(miss.status == 503)
            #expect(miss.errorCode == "store_unavailable")
            #expect(miss.header("Retry-After") != nil)
            let publish = try replica.publish(cached, after: 1, name: "During the outage")
            #expect(publish.status == 503)
            #expect(publish.header("Retry-After") != nil)
            #expect(try replica.get("/readyz").status == 503)
        }

        try cluster.startServer()
        restarted = true
        // No restart of lookd: each replica reconnects by itself (backoff up to 1 s for the pool, 2 s for the listener).
        for replica in replicas {
            #expect(try eventually(within: 15) { try replica.get("/readyz").status == 200 })
        }
        #expect(try replicas[0].publish(cached, after: 1, name: "After the outage").status == 200)
        for replica in replicas {
            let served = try eventually(within: 5) { try replica.get("/v1/apps/\(cached)/look?lang=de").json["version"] as? Int == 2 }
            #expect(served)
            #expect(try replica.get("/v1/apps/\(uncached)/look").status == 200)
            let metrics = try replica.get("/metrics").text
            #expect(!metrics.contains("lookd_store_reconnects_total 0\n"))
            #expect(!replica.log.contains(Self.password), "the password appeared in a log line")
            #expect(!metrics.contains(Self.password))
        }
    }

    @Test func killNineOfAReplicaDuringABurstOfPublishesLosesNoAcknowledgedVersion() throws {
        let logs = try TemporaryDirectory()
        let (_, replicas) = try Self.replicas(2, logs: logs)
        let victim = replicas[0]
        let keys = try (0..<4).map { _ in try newAppKey() }
        let acknowledged = victim.killNineDuringPublishBurst(keys: keys)
        let survivor = replicas[1]
        for (key, version) in acknowledged {
            // A commit the victim sent but never acknowledged may still land: read the look first, the history after.
            let fetched = try survivor.get("/v1/apps/\(key)/look")
            let history = try survivor.get("/v1/apps/\(key)/look/history?limit=1000", admin: true)
            let current = try #require(history.json["currentVersion"] as? Int)
            #expect(current >= version, "acknowledged v\(version), found v\(current)")
            let versions = Set((history.json["versions"] as? [[String: Any]] ?? []).compactMap { $0["version"] as? Int })
            #expect(Set(1...version).isSubset(of: versions))
            let served = try #require(fetched.json["version"] as? Int, "\(fetched.status) \(fetched.text)")
            #expect(served >= version && served <= current)
        }
    }

    @Test func storeCopyMovesEveryVersionFromSQLiteAndIsIdempotent() throws {
        let logs = try TemporaryDirectory()
        let sqlite = logs.path + "/sqlite"
        let keys = try (0..<3).map { _ in try newAppKey() }
        var expected: [String: (look: HTTPResult, history: HTTPResult)] = [:]
        do {
            let single = try Daemon(data: sqlite)
            for (index, key) in keys.enumerated() {
                for version in 0...index { #expect(try single.publish(key, after: version, name: "app \(index) v\(version + 1)").status < 300) }
            }
            #expect(try single.request("POST", "/v1/apps/\(keys[2])/look/rollback?to=1", admin: true).status == 201)
            for key in keys {
                expected[key] = (try single.get("/v1/apps/\(key)/look?lang=de"), try single.get("/v1/apps/\(key)/look/history", admin: true))
            }
            #expect(single.stop() == 0)
        }
        let uri = try PostgresCluster.get().createDatabase(password: Self.password)
        let (status, output, errors) = try runLookd(["store", "copy", "--from", "sqlite:" + sqlite, "--to", uri])
        #expect(status == 0, "\(errors)")
        #expect(output.contains("copied 7 version(s) of 3 app(s) (0 already present)"), "\(output)")
        let (again, secondOutput, _) = try runLookd(["store", "copy", "--from", "sqlite:" + sqlite, "--to", uri])
        #expect(again == 0)
        #expect(secondOutput.contains("copied 0 version(s) of 3 app(s) (7 already present)"), "\(secondOutput)")
        #expect(!output.contains(Self.password) && !secondOutput.contains(Self.password) && !errors.contains(Self.password))

        let replica = try Daemon(data: logs.path + "/replica", store: uri)
        for key in keys {
            let look = try replica.get("/v1/apps/\(key)/look?lang=de")
            #expect(look.body == expected[key]?.look.body, "the copied look is served byte for byte")
            #expect(look.header("ETag") == expected[key]?.look.header("ETag"))
            #expect(try replica.get("/v1/apps/\(key)/look/history", admin: true).body == expected[key]?.history.body)
        }
    }

    @Test func aPasswordNeverAppearsInLogsErrorsOrMetrics() throws {
        let logs = try TemporaryDirectory()
        let (uri, replicas) = try Self.replicas(1, logs: logs)
        let replica = replicas[0]
        #expect(replica.log.contains("postgresql://postgres:***@127.0.0.1:"))
        #expect(try replica.get("/metrics").status == 200)
        let everything = replica.log + (try replica.get("/metrics").text)
            + ((try? String(contentsOfFile: logs.path + "/replica0-logs/access.log", encoding: .utf8)) ?? "")
        #expect(!everything.contains(Self.password))

        // An unreachable database: start-up fails, and says where without the password (also in a parameter).
        let unreachable = uri.replacingOccurrences(of: ":\(try PostgresCluster.get().port)/", with: ":1/") + "?sslmode=disable&password=" + Self.password
        let (status, _, errors) = try runLookd(["serve", "--listen", "127.0.0.1:0", "--store", unreachable])
        #expect(status == 2)
        #expect(errors.contains("postgresql://postgres:***@127.0.0.1:1/"))
        #expect(errors.contains("password=***"))
        #expect(!errors.contains(Self.password))
        let (copyStatus, _, copyErrors) = try runLookd(["store", "copy", "--from", unreachable, "--to", uri])
        #expect(copyStatus == 2)
        #expect(!copyErrors.contains(Self.password))
        let (badStatus, _, badErrors) = try runLookd(["serve", "--store", "mysql://root:\(Self.password)@db/looks"])
        #expect(badStatus == 2)
        #expect(!badErrors.contains(Self.password))
    }
}

extension PostgresStoreTests {
    @Test func aPublishBlockedByAnotherSessionsLockAnswers503AtTheTimeoutThenSucceeds() throws {
        let logs = try TemporaryDirectory()
        let (uri, replicas) = try Self.replicas(1, logs: logs, extra: ["--store-busy-timeout", "300"])
        let replica = replicas[0]
        let key = try newAppKey()
        #expect(try replica.publish(key, after: 0, name: "v1").status == 201)

        // Another session holds the app's row lock, as a stuck maintenance transaction would.
        let printed = logs.path + "/psql.out"
        let psql = try ChildProgram("/usr/bin/psql", ["-q", "-v", "ON_ERROR_STOP=1", uri], input: true, stdout: printed)
        try psql.writeInput("BEGIN;\nSELECT 1 FROM apps WHERE app_key = '\(key)' FOR UPDATE;\n\\echo locked\n")
        #expect(eventually(within: 30) { ((try? String(contentsOfFile: printed, encoding: .utf8)) ?? "").contains("locked") })
        let blocked = try replica.publish(key, after: 1, name: "blocked")
        #expect(blocked.status == 503, "a publish waiting on the lock past --store-busy-timeout answers 503")
        #expect(blocked.header("Retry-After") != nil)
        #expect(try replica.get("/v1/apps/\(key)/look").status == 200)   // reads do not wait for the lock
        try psql.writeInput("ROLLBACK;\n")
        psql.closeInput()
        #expect(psql.wait(within: 60) == .exited(0))
        #expect(try replica.publish(key, after: 1, name: "v2").status == 200)
    }
}
