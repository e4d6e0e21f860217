import Locking
import Foundation
@testable import LookdServer
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The change feed and webhooks over PostgreSQL replicas. In `PostgresStoreTests` (serialized): the restart test stops
/// the shared server.
extension PostgresStoreTests {
    /// `lookd serve` arguments for the feed token and a webhook to `receiver` with an attempt deadline of `timeout` and a
    /// lease of `lease` seconds.
    static func feedArguments(_ logs: TemporaryDirectory, receiver: TestReceiver?, timeout: Int = 1, lease: Int = 3) throws -> [String] {
        let token = logs.path + "/feed.token", secret = logs.path + "/webhook.secret"
        try Data((feedToken + "\n").utf8).write(to: URL(fileURLWithPath: token))
        try Data((webhookSecret + "\n").utf8).write(to: URL(fileURLWithPath: secret))
        var arguments = ["--feed-token-file", token]
        if let receiver {
            arguments += ["--webhook", receiver.url, "--webhook-secret-file", secret, "--webhook-timeout", String(timeout), "--webhook-lease-seconds", String(lease)]
        }
        return arguments
    }

    /// Two replicas publish concurrently: the feed (read from either) has every acknowledged publish once, seq 1…N
    /// without a gap, and each app's versions in order; a long-poll on one replica is woken by a publish on the other.
    @Test func replicasPublishesLandInTheFeedOnceInOrderAndWakeEachOthersLongPolls() throws {
        let logs = try TemporaryDirectory()
        let (_, replicas) = try Self.replicas(2, logs: logs, extra: try Self.feedArguments(logs, receiver: nil))
        let keys = try (0..<4).map { _ in try newAppKey() }
        let acknowledged = LockedValue(0)
        let group = DispatchGroup()
        for (index, replica) in replicas.enumerated() {
            DispatchQueue.global().async(group: group) {
                for round in 0..<10 {
                    let key = keys[(index * 2 + round) % keys.count]
                    for _ in 0..<40 {
                        let current = (try? replica.get("/v1/apps/\(key)/look/history?limit=1", admin: true).json["currentVersion"] as? Int) ?? 0
                        if (try? replica.publish(key, after: current, name: "r\(index)-\(round)"))?.status ?? 0 < 300 {
                            acknowledged.withLock { $0 += 1 }
                            break
                        }
                    }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        let total = acknowledged.withLock { $0 }
        #expect(total == 20)
        let bearer = [("Authorization", "Bearer \(feedToken)")]
        for replica in replicas {
            let page = try replica.get("/v1/changes?after=0&limit=1000", headers: bearer)
            let events = feedEvents(page)
            #expect(events.compactMap { $0["seq"] as? Int } == Array(1...max(1, total)).prefix(total).map { $0 })
            for key in keys {
                let versions = events.filter { $0["appKey"] as? String == key }.compactMap { $0["version"] as? Int }
                #expect(versions == (0..<versions.count).map { $0 + 1 })
            }
        }
        // A long-poll on replica 1 answered by a publish on replica 0 (LISTEN/NOTIFY wakes its feed thread).
        let waiting = DispatchSemaphore(value: 0)
        let answer = LockedValue<HTTPResult?>(nil)
        DispatchQueue.global().async {
            answer.withLock { $0 = try? replicas[1].get("/v1/changes?after=\(total)&wait=30", headers: bearer) }
            waiting.signal()
        }
        let key = try newAppKey()
        #expect(try replicas[0].publish(key, after: 0, name: "late").status == 201)
        #expect(waiting.wait(timeout: .now() + 40) == .success)
        let late = try #require(answer.withLock { $0 })
        #expect(feedEvents(late).compactMap { $0["appKey"] as? String } == [key])
    }

    /// Two replicas deliver to one receiver while a burst of publishes goes to replica 1; replica 0 is killed with
    /// SIGKILL in the middle. Every event is acknowledged by the receiver at least once; any duplicate carries the same
    /// Lookd-Delivery and the same body; each app's events arrive in order.
    @Test func killNineOfADeliveringReplicaDuringABurstLosesNoEvent() throws {
        let receiver = try TestReceiver()
        let logs = try TemporaryDirectory()
        let (_, replicas) = try Self.replicas(2, logs: logs, extra: try Self.feedArguments(logs, receiver: receiver))
        let keys = try (0..<3).map { _ in try newAppKey() }
        var versions = [String: Int]()
        var published = 0
        for round in 0..<30 {
            let key = keys[round % keys.count]
            let after = versions[key] ?? 0
            #expect(try replicas[1].publish(key, after: after, name: "burst \(round)").status < 300)
            versions[key] = after + 1
            published += 1
            if round == 10 {
                #expect(receiver.wait(seconds: 30) { $0.count >= 3 })
                replicas[0].stop(SIGKILL)
            }
        }
        #expect(receiver.wait(seconds: 60) { Set($0.map(\.seq)).count >= published })
        let received = receiver.received
        #expect(Set(received.map(\.seq)) == Set(1...published))
        var bodies: [String: [UInt8]] = [:]
        for request in received {
            let id = request.headers["lookd-delivery"] ?? ""
            #expect(id.hasSuffix("-\(request.seq)"))
            if let earlier = bodies[id] { #expect(earlier == request.body, "a duplicate of \(id) with another body") }
            bodies[id] = request.body
        }
        for key in keys {
            // First arrivals per app are in seq order (a duplicate may come again later, never an older one first).
            var firsts: [Int] = []
            for request in received where request.appKey == key && !firsts.contains(request.seq) { firsts.append(request.seq) }
            #expect(firsts == firsts.sorted())
        }
    }

    /// The database restarts while a delivery is in flight: the replica cannot record the receiver's answer, the lease
    /// runs out, and after the restart the delivery is made again (same Lookd-Delivery) and the app's later events follow.
    @Test func aPostgresRestartMidDeliveryLosesNothing() throws {
        let receiver = try TestReceiver { number in number == 0 ? .hold(200) : .status(200) }
        let logs = try TemporaryDirectory()
        // The held answer must come within the attempt's deadline, after the database went down: 10 s.
        let (_, replicas) = try Self.replicas(1, logs: logs, extra: try Self.feedArguments(logs, receiver: receiver, timeout: 10, lease: 12))
        let key = try newAppKey()
        for version in 0..<3 { #expect(try replicas[0].publish(key, after: version, name: "v\(version + 1)").status < 300) }
        #expect(receiver.wait(seconds: 30) { $0.count >= 1 })
        let cluster = try PostgresCluster.get()
        try cluster.stopServer()
        receiver.release()
        try cluster.startServer()
        #expect(receiver.wait(seconds: 60) { Set($0.map(\.seq)) == [1, 2, 3] })
        let received = receiver.received
        var firsts: [Int] = []
        for request in received where !firsts.contains(request.seq) { firsts.append(request.seq) }
        #expect(firsts == [1, 2, 3])
        let ids = Dictionary(grouping: received, by: { $0.headers["lookd-delivery"] ?? "" })
        #expect(ids.count == 3)
        #expect(ids.keys.allSatisfy { id in ids[id]!.allSatisfy { "\($0.seq)" == id.split(separator: "-").last.map(String.init) } })
        #expect(try replicas[0].get("/readyz").status == 200)
    }
}
