import Locking
import Foundation
@testable import LookdServer
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue #29: two `lookd serve` replicas on a multi-host URL over a PostgreSQL primary and its synchronous standby;
/// the primary fails (`pg_ctl stop -m immediate`) during a burst of publishes and fetches, then the standby is
/// promoted. Nothing acknowledged may be lost, no answer may lie, cached looks are served throughout,
/// publishes resume on the promoted server without restarting lookd, and the change feed and the webhooks go on
/// without a gap. And a synchronous primary whose standby is down answers a publish instead of hanging.
@Suite("PostgreSQL failover: a standby promoted during publishes and fetches", .serialized, .ownThread,
       .enabled(if: postgresBinariesPresent, postgresSkipReason), .timeLimit(.minutes(10)))
struct FailoverTests {
    /// What the burst's clients saw.
    struct Record: Sendable {
        /// Acknowledged publishes: app key, version, the app name published, when.
        var acknowledged: [(key: String, version: Int, name: String, at: ContinuousClock.Instant)] = []
        /// Publish answers by status and code (`200`, `503 store_unavailable`, …).
        var publishAnswers: [String: Int] = [:]
        /// 412s that no earlier `publish_outcome_unknown` explains: a version stored although an answer said not.
        var lies = 0
        /// Fetches of cached apps: by status, and how many ran after a given instant.
        var fetchStatuses: [String: Int] = [:]
        var fetchTimes: [ContinuousClock.Instant] = []
    }

    @Test func aSynchronousStandbyPromotedDuringABurstLosesNoAcknowledgedPublishAndCachedLooksAreServedThroughout() throws {
        let work = try TemporaryDirectory()
        let pair = try StandbyPair(directory: work.path, synchronous: true)
        defer { pair.destroy() }
        // Both replicas deliver webhooks to one receiver on loopback; a delivery's lease (2 s) runs out soon, so one
        // whose outcome a replica could not record while there was no primary is taken over within the test.
        let receiver = try TestReceiver()
        defer { receiver.stop() }
        let secretFile = work.path + "/webhook.secret"
        try Data((webhookSecret + "\n").utf8).write(to: URL(fileURLWithPath: secretFile))
        let webhooks = ["--webhook", receiver.url, "--webhook-secret-file", secretFile, "--webhook-timeout", "1", "--webhook-lease-seconds", "2"]
        let replicas = try (0..<2).map {
            try Daemon(data: work.path + "/replica\($0)", store: pair.uri(password: PostgresStoreTests.password), arguments: webhooks)
        }
        defer { for replica in replicas { replica.stop() } }

        // Three apps published, and once every replica has heard of the three publishes (each drops the app then),
        // fetched on both replicas in two languages: cached everywhere.
        let cached = try (0..<3).map { _ in try newAppKey() }
        for key in cached { #expect(try replicas[0].publish(key, after: 0, name: "Cached \(key.suffix(4))").status == 201) }
        for replica in replicas { #expect(try PostgresStoreTests.heard(replica, cached.count)) }
        var etags: [String: String] = [:]
        for key in cached {
            for replica in replicas {
                for lang in ["en", "de"] {
                    let answer = try replica.get("/v1/apps/\(key)/look?lang=\(lang)")
                    #expect(answer.status == 200)
                    etags["\(key) \(lang)"] = answer.header("ETag")
                }
            }
        }

        let tags = etags
        let clock = ContinuousClock()
        let record = LockedValue(Record())
        let stop = Atomic<Bool>(false)
        let group = DispatchGroup()
        for publisher in 0..<2 {
            let key = try newAppKey()
            group.enter()
            Thread.detachNewThread {
                Self.publish(key, publisher, replicas, record, stop, clock)
                group.leave()
            }
        }
        for fetcher in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var turn = fetcher
                while !stop.load(ordering: .relaxed) {
                    turn += 1
                    let key = cached[turn % cached.count], lang = turn % 2 == 0 ? "en" : "de"
                    let conditional = turn % 3 == 0 ? [("If-None-Match", tags["\(key) \(lang)"] ?? "")] : []
                    let answer = try? replicas[turn % 2].get("/v1/apps/\(key)/look?lang=\(lang)", headers: conditional)
                    var label = answer.map { "\($0.status)" + ($0.errorCode.map { " " + $0 } ?? "") } ?? "no answer"
                    if answer?.status != 200 && answer?.status != 304 { label += " replica \(turn % 2) app \(turn % cached.count) \(lang)" }
                    let now = clock.now
                    record.withLock {
                        $0.fetchStatuses[label, default: 0] += 1
                        $0.fetchTimes.append(now)
                    }
                }
            }
        }
        defer {
            stop.store(true, ordering: .relaxed)
            group.wait()
        }
        func acknowledged(after instant: ContinuousClock.Instant) -> Int { record.withLock { $0.acknowledged.filter { $0.at > instant }.count } }
        func fetches(after instant: ContinuousClock.Instant) -> Int { record.withLock { $0.fetchTimes.filter { $0 > instant }.count } }

        let began = clock.now
        #expect(eventually(within: 30) { acknowledged(after: began) >= 10 && fetches(after: began) >= 40 })
        try pair.crashPrimary()
        let crashed = clock.now
        // No primary at all: the cached looks must still be served (at least 40 fetches in this window).
        #expect(eventually(within: 20) { fetches(after: crashed) >= 40 })
        try pair.promoteStandby()
        let promoted = clock.now
        #expect(eventually(within: 5) { acknowledged(after: promoted) >= 2 }, "publishes did not resume within 5 s of the promotion")
        #expect(eventually(within: 20) { acknowledged(after: promoted) >= 10 && fetches(after: promoted) >= 40 })
        stop.store(true, ordering: .relaxed)
        group.wait()

        let seen = record.withLock { $0 }
        let firstAfter = seen.acknowledged.map(\.at).filter { $0 > promoted }.min()
        print("failover (synchronous standby): \(seen.acknowledged.count) publishes acknowledged, answers \(seen.publishAnswers.sorted { $0.key < $1.key }); "
              + "\(seen.fetchStatuses.values.reduce(0, +)) fetches of cached apps \(seen.fetchStatuses.sorted { $0.key < $1.key }); "
              + "primary down to promoted: \(promoted - crashed); promoted to first acknowledged publish: \(firstAfter.map { "\($0 - promoted)" } ?? "none")")
        #expect(Set(seen.fetchStatuses.keys).isSubset(of: ["200", "304"]), "fetches of cached apps: \(seen.fetchStatuses)")
        if !Set(seen.fetchStatuses.keys).isSubset(of: ["200", "304"]) { for replica in replicas { print(replica.log.split(separator: "\n").filter { $0.contains("feed") || $0.contains("revalidat") || $0.contains("listening") }.suffix(40).joined(separator: "\n")) } }
        #expect(seen.lies == 0, "a 412 showed a publish that had been answered as not stored")

        // Every acknowledged publish is on the promoted server, as published.
        let promotedServer = pair.uri(port: pair.standbyPort)
        for (key, entries) in Dictionary(grouping: seen.acknowledged, by: \.key) {
            let rows = try psql(promotedServer, "SELECT version || ' ' || layer FROM look_versions WHERE app_key = '\(key)'")
                .split(separator: "\n").map(String.init)
            for entry in entries {
                #expect(rows.contains { $0.hasPrefix("\(entry.version) ") && $0.contains("\"appName\":\"\(entry.name)\"") },
                        "acknowledged v\(entry.version) of \(key) is not on the promoted server")
            }
        }

        // The durable change feed went on through the switch: numbered 1, 2, 3, … with no gap and no number twice,
        // one event per stored version, and an event for every acknowledged publish.
        let events = try psql(promotedServer, "SELECT seq || ' ' || app_key || ' ' || version FROM change_events ORDER BY seq")
            .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(events.map { Int($0[0]) } == (1..<(events.count + 1)).map { Optional($0) }, "the feed's sequence numbers have a gap or a repeat")
        let versionCount = try psql(promotedServer, "SELECT count(*) FROM look_versions").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Int(versionCount) == events.count, "\(versionCount) versions but \(events.count) change events")
        let evented = Set(events.map { $0.dropFirst().joined(separator: " ") })
        for entry in seen.acknowledged {
            #expect(evented.contains("\(entry.key) \(entry.version)"), "no change event for acknowledged v\(entry.version) of \(entry.key)")
        }

        // The webhooks went on through the switch: every event on the promoted server is delivered (so every
        // acknowledged publish's, checked above to have one), the delivered numbers have no gap and none beyond the
        // feed, each app's deliveries come in order, and a delivery made twice (its outcome was lost with the primary)
        // carries the same Lookd-Delivery both times.
        let feed = Set(events.compactMap { Int($0[0]) })
        let appOf = Dictionary(events.map { (Int($0[0]) ?? 0, $0[1]) }, uniquingKeysWith: { first, _ in first })
        #expect(receiver.wait(seconds: 90) { Set($0.map(\.seq)).isSuperset(of: feed) }, "not every event was delivered within 90 s")
        let received = receiver.received
        #expect(Set(received.map(\.seq)) == feed, "delivered seqs \(Set(received.map(\.seq)).sorted()) are not the feed's 1...\(feed.count)")
        let id = receiverID(receiver.url)
        for request in received {
            #expect(request.headers["lookd-delivery"] == "\(id)-\(request.seq)")
            #expect(request.appKey == appOf[request.seq], "delivery \(request.seq) carries another app's event")
            let signature = request.headers["lookd-signature"] ?? ""
            #expect(throws: Never.self) {
                try WebhookSignature.verify(header: signature, body: request.body, secret: Array(webhookSecret.utf8), now: unixMilliseconds() / 1000)
            }
        }
        for (app, requests) in Dictionary(grouping: received, by: \.appKey) {
            let order = requests.map(\.seq)
            #expect(order == order.sorted(), "\(app)'s deliveries came out of order: \(order)")
        }
        let repeated = Dictionary(grouping: received, by: \.seq).filter { $0.value.count > 1 }
        for (seq, copies) in repeated {
            #expect(Set(copies.map { $0.headers["lookd-delivery"] ?? "" }) == ["\(id)-\(seq)"])
        }
        #expect(try eventually(within: 30) {
            try psql(promotedServer, "SELECT count(*) FROM webhook_deliveries WHERE state <> 'delivered'") == "0"
        }, "deliveries still not recorded as delivered on the promoted server")
        print("failover (synchronous standby): \(feed.count) events, \(received.count) webhook deliveries, \(repeated.count) delivered more than once")

        // The replicas kept their caches (revalidated, not dropped), and their change feed works on the new primary.
        for replica in replicas {
            let metrics = try replica.get("/metrics").text
            #expect(metrics.contains("lookd_look_cache_revalidated_kept_total") && !metrics.contains("lookd_look_cache_revalidated_kept_total 0\n"))
        }
        let history = try replicas[0].get("/v1/apps/\(cached[0])/look/history", admin: true)
        let current = try #require(history.json["currentVersion"] as? Int)
        #expect(try replicas[0].publish(cached[0], after: current, name: "After the failover").status == 200)
        #expect(try eventually(within: 1) {
            try replicas[1].get("/v1/apps/\(cached[0])/look?lang=de").json["version"] as? Int == current + 1
        })
    }

    /// A synchronous primary whose only standby is down: PostgreSQL's COMMIT waits for the standby with no timeout
    /// (`statement_timeout` does not cover it), so lookd bounds it itself (`--store-busy-timeout`, here 1 s), cancels the
    /// wait and reads the version back. The answer must come, and must be true: the version is committed on the primary
    /// but on no standby, so 503 `publish_outcome_unknown`, and the history then shows it. Once the standby is back,
    /// publishes are acknowledged again and the version is on the standby too.
    @Test func aSynchronousPrimaryWhoseStandbyIsDownAnswersAPublishInsteadOfHanging() throws {
        let work = try TemporaryDirectory()
        let pair = try StandbyPair(directory: work.path, synchronous: true)
        defer { pair.destroy() }
        let replica = try Daemon(data: work.path + "/replica", store: pair.uri(password: PostgresStoreTests.password),
                                 arguments: ["--store-busy-timeout", "1000"])
        defer { replica.stop() }
        let key = try newAppKey()
        #expect(try replica.publish(key, after: 0, name: "v1").status == 201)

        try pair.stopStandby()
        let primary = pair.uri(port: pair.primaryPort)
        #expect(try eventually(within: 20) { try psql(primary, "SELECT count(*) FROM pg_stat_replication") == "0" })
        for version in 2...3 {
            let answer = try replica.publish(key, after: version - 1, name: "v\(version)")
            #expect(answer.status == 503, "\(answer.status) \(answer.text)")
            #expect(answer.errorCode == "publish_outcome_unknown", "v\(version) is on the primary: \"nothing was published\" would be a lie")
            #expect(answer.header("Retry-After") != nil)
            // The client reads the current version back, as the answer tells it to: the version it sent is there.
            let history = try replica.get("/v1/apps/\(key)/look/history?limit=1", admin: true)
            #expect(history.json["currentVersion"] as? Int == version)
        }
        // Fetches are not affected (v3 is the primary's current version).
        #expect(try replica.get("/v1/apps/\(key)/look?lang=en").json["version"] as? Int == 3)

        try pair.startStandby()
        #expect(try eventually(within: 30) { try psql(primary, "SELECT sync_state FROM pg_stat_replication") == "sync" })
        #expect(try replica.publish(key, after: 3, name: "v4").status == 200)
        #expect(try eventually(within: 10) {
            try psql(pair.uri(port: pair.standbyPort), "SELECT max(version) FROM look_versions WHERE app_key = '\(key)'") == "4"
        })
    }

    /// One publisher: its own app, alternating replicas, as fast as answers come. A 503 `store_unavailable` means
    /// nothing was stored (retried as is); `publish_outcome_unknown` means read the current version first; a 412 that
    /// no such answer explains is a lie (counted).
    static func publish(_ key: String, _ publisher: Int, _ replicas: [Daemon], _ record: LockedValue<Record>, _ stop: borrowing Atomic<Bool>, _ clock: ContinuousClock) {
        var version = 0, attempt = 0, unknown = false
        while !stop.load(ordering: .relaxed) {
            attempt += 1
            let name = "publisher \(publisher) attempt \(attempt)"
            let replica = replicas[attempt % replicas.count]
            guard let answer = try? replica.publish(key, after: version, name: name) else { continue }
            let label = "\(answer.status)" + (answer.errorCode.map { " " + $0 } ?? "")
            record.withLock { $0.publishAnswers[label, default: 0] += 1 }
            switch answer.status {
            case 200, 201:
                version = answer.json["version"] as? Int ?? version + 1
                unknown = false
                let now = clock.now
                record.withLock { $0.acknowledged.append((key, version, name, now)) }
            case 412:
                if !unknown { record.withLock { $0.lies += 1 } }
                version = Int((answer.header("ETag") ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "\"v"))) ?? version
                unknown = false
            default:
                if answer.errorCode == "publish_outcome_unknown" { unknown = true }
                usleep(20_000)   // a client's pause before retrying, not a synchronisation
            }
        }
    }
}
