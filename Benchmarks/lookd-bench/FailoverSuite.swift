import Locking
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `lookd-bench failover`: what `synchronous_standby_names` buys and costs. For each mode (a synchronous standby,
/// an asynchronous one): publish latency (p50/p99 of 300 sequential publishes through one lookd), then
/// `FAILOVER_RUNS` (default 5) failovers — a fresh primary and standby (`pg_basebackup -R`), one lookd on the
/// multi-host URL, two publishers as fast as answers come, the primary crashed (`pg_ctl stop -m immediate`) after
/// 1.5 s, the standby promoted at once — counting the acknowledged publishes missing on the promoted server and the
/// time from the promotion to the first publish acknowledged again. Needs Debian's postgresql and the release
/// `lookd` next to this binary.
let failoverSuite = BenchmarkSuite(name: "failover", onError: "skipped") { try FailoverBench.run() }

enum FailoverBench {
    static let runs = Int(ProcessInfo.processInfo.environment["FAILOVER_RUNS"] ?? "") ?? 5
    static let latencyPublishes = 300

    static func run() throws {
        let lookd = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("lookd").path
        guard FileManager.default.isExecutableFile(atPath: lookd) else { throw BenchError("no lookd next to lookd-bench (\(lookd))") }
        for synchronous in [true, false] {
            let mode = synchronous ? "synchronous standby " : "asynchronous standby"
            var latencies: [Double] = []
            var lines: [String] = []
            for run in 0...runs {
                let pair = try Pair(lookd: lookd, synchronous: synchronous)
                defer { pair.destroy() }
                if run == 0 {
                    latencies = try pair.publishLatencies(latencyPublishes)
                    continue
                }
                lines.append(try pair.failover())
            }
            latencies.sort()
            print(String(format: "%@: publish latency p50 %.2f ms, p99 %.2f ms (%d sequential publishes, one lookd)", mode,
                         latencies[latencies.count / 2], latencies[latencies.count * 99 / 100], latencies.count))
            for (index, line) in lines.enumerated() { print("  failover run \(index + 1): \(line)") }
        }
    }

    /// A primary, its standby and one lookd on both; `destroy()` stops all three.
    final class Pair: Sendable {
        let work: String
        let script = FileManager.default.currentDirectoryPath + "/scripts/postgres-cluster.sh"
        let ports: (primary: Int, standby: Int)
        let server: Process
        let port: UInt16
        static let token = "bench-admin-token-5d1c0e9a77"

        init(lookd: String, synchronous: Bool) throws {
            work = FileManager.default.temporaryDirectory.appendingPathComponent("lookd-failover-bench-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            try Data(Self.token.utf8).write(to: URL(fileURLWithPath: work + "/token"))
            let primary = try Self.cluster(script, "start", work + "/primary")
            guard Self.psql(primary, "postgres", "CREATE DATABASE lookd") != nil else { throw BenchError("CREATE DATABASE failed") }
            let standby = try Self.cluster(script, "standby", work + "/standby", work + "/primary")
            ports = (primary, standby)
            if synchronous {
                _ = Self.psql(primary, "postgres", "ALTER SYSTEM SET synchronous_standby_names = '*'")
                _ = Self.psql(primary, "postgres", "SELECT pg_reload_conf()")
            }
            let state = synchronous ? "sync" : "async"
            let deadline = Date().addingTimeInterval(20)
            while Self.psql(primary, "postgres", "SELECT sync_state FROM pg_stat_replication") != state {
                guard Date() < deadline else { throw BenchError("the standby never reported \(state)") }
                usleep(50_000)
            }
            server = Process()
            server.executableURL = URL(fileURLWithPath: lookd)
            let uri = "postgresql://postgres@127.0.0.1:\(primary),127.0.0.1:\(standby)/lookd?target_session_attrs=read-write&connect_timeout=2"
            server.arguments = ["serve", "--listen", "127.0.0.1:0", "--store", uri, "--admin-token-file", work + "/token", "--access-log", "off", "--threads", "2"]
            let log = work + "/lookd.err"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            server.standardError = FileHandle(forWritingAtPath: log)
            server.standardOutput = FileHandle.nullDevice
            try server.run()
            port = try HTTPBench.waitForPort(log, server)
        }

        func destroy() {
            if server.isRunning {
                server.terminate()
                server.waitUntilExit()
            }
            _ = system("/bin/bash '\(script)' destroy '\(work)/standby' >/dev/null 2>&1; /bin/bash '\(script)' destroy '\(work)/primary' >/dev/null 2>&1")
            try? FileManager.default.removeItem(atPath: work)
        }

        /// The milliseconds of `count` sequential publishes of one app.
        func publishLatencies(_ count: Int) throws -> [Double] {
            let key = try StoreBench.appKey(URL(fileURLWithPath: server.executableURL!.path).path)
            let clock = ContinuousClock()
            return try (0..<count).map { version in
                let began = clock.now
                guard try publish(key, after: version, name: "v\(version + 1)") == 200 + (version == 0 ? 1 : 0) else { throw BenchError("publish failed") }
                return seconds(clock.now - began) * 1000
            }
        }

        /// One failover under two publishers; a line: acknowledged, lost, promotion to the first new acknowledgement.
        func failover() throws -> String {
            let keys = try (0..<2).map { _ in try StoreBench.appKey(server.executableURL!.path) }
            let acknowledged = LockedValue<[(key: String, version: Int, name: String, at: ContinuousClock.Instant)]>([])
            let stop = Synchronization.Atomic<Bool>(false)
            let clock = ContinuousClock()
            let group = DispatchGroup()
            for key in keys {
                group.enter()
                Thread.detachNewThread { [self] in
                    defer { group.leave() }
                    var version = 0, attempt = 0
                    while !stop.load(ordering: .relaxed) {
                        attempt += 1
                        let name = "attempt \(attempt)"
                        switch (try? publish(key, after: version, name: name)) ?? 0 {
                        case 200, 201:
                            version += 1
                            let now = clock.now
                            acknowledged.withLock { $0.append((key, version, name, now)) }
                        case 412:
                            version = (try? current(key)) ?? version
                        default:
                            usleep(20_000)
                        }
                    }
                }
            }
            usleep(1_500_000)
            _ = system("/bin/bash '\(script)' crash '\(work)/primary' >/dev/null 2>&1")
            _ = system("/bin/bash '\(script)' promote '\(work)/standby' >/dev/null 2>&1")
            let promoted = clock.now
            let deadline = Date().addingTimeInterval(15)
            while acknowledged.withLock({ $0.filter { $0.at > promoted }.count }) < 10, Date() < deadline { usleep(20_000) }
            stop.store(true, ordering: .relaxed)
            group.wait()
            let acks = acknowledged.withLock { $0 }
            var lost = 0
            for key in keys {
                let rows = Self.psql(ports.standby, "lookd", "SELECT version || ' ' || layer FROM look_versions WHERE app_key = '\(key)'") ?? ""
                let stored = Set(rows.split(separator: "\n").map(String.init))
                lost += acks.filter { $0.key == key }.filter { ack in !stored.contains { $0.hasPrefix("\(ack.version) ") && $0.contains("\"appName\":\"\(ack.name)\"") } }.count
            }
            let resumed = acks.map(\.at).filter { $0 > promoted }.min().map { String(format: "%.2f s", seconds($0 - promoted)) } ?? "never (15 s)"
            return "\(acks.count) acknowledged, \(lost) lost; promoted to the first new acknowledgement \(resumed)"
        }

        private func publish(_ key: String, after version: Int, name: String) throws -> Int {
            let precondition = version == 0 ? "If-None-Match: *" : "If-Match: \"v\(version)\""
            return try HTTPBench.request(port: port, "PUT /v1/apps/\(key)/look", headers: [precondition, "Content-Type: application/json", "Authorization: Bearer \(Self.token)"],
                                         body: Array("{\"appName\":\"\(name)\"}".utf8)).status
        }

        private func current(_ key: String) throws -> Int? {
            let answer = try HTTPBench.request(port: port, "GET /v1/apps/\(key)/look/history?limit=1", headers: ["Authorization: Bearer \(Self.token)"], body: nil)
            return (try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["currentVersion"] as? Int
        }

        /// Runs the cluster script through `system` with its output in a file (a server it starts would hold a pipe
        /// open for ever); returns the port of the directory it made (the first argument after the command).
        private static func cluster(_ script: String, _ command: String, _ directories: String...) throws -> Int {
            let log = directories[0] + ".log"
            let arguments = directories.map { "'\($0)'" }.joined(separator: " ")
            guard system("/bin/bash '\(script)' \(command) \(arguments) >'\(log)' 2>&1 </dev/null") == 0,
                  let port = Int(((try? String(contentsOfFile: directories[0] + "/port", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw BenchError("postgres-cluster.sh \(command) failed: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            return port
        }

        /// One statement's unaligned output, nil when psql failed.
        private static func psql(_ port: Int, _ database: String, _ sql: String) -> String? {
            let pipe = Pipe()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
            process.arguments = ["-qAt", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-c", sql, database]
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return process.terminationStatus == 0 ? output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
        }
    }
}
