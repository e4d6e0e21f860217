import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `lookd-bench store`: the PostgreSQL store against the SQLite store in the same run — the cached SDK fetch
/// (wrk; the hot path must not depend on the store), publishes per second, and publish-to-served-everywhere
/// latency (p50/p99 over 1,000 publishes rotating over 3 PostgreSQL replicas, each publish followed by polling
/// every replica until all serve it). Needs Debian's postgresql (a throw-away cluster via
/// scripts/postgres-cluster.sh), wrk, and the release `lookd` next to this binary.
let storeSuite = BenchmarkSuite(name: "store", onError: "skipped") { try StoreBench.run() }

enum StoreBench {
    static let token = "bench-admin-token-5d1c0e9a77"
    static let publishes = 1_000

    /// A work directory with the admin token, a throw-away PostgreSQL cluster with an empty database, and a way to start
    /// release `lookd serve` processes on them (stopped, and everything removed, when the value is released).
    final class Setup {
        let lookd: String
        let work: String
        let uri: String
        private let script: String
        private var servers: [Process] = []

        init(name: String) throws {
            lookd = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("lookd").path
            guard FileManager.default.isExecutableFile(atPath: lookd) else { throw BenchError("no lookd next to lookd-bench (\(lookd))") }
            work = FileManager.default.temporaryDirectory.appendingPathComponent("lookd-\(name)-bench-\(getpid())").path
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            try Data(token.utf8).write(to: URL(fileURLWithPath: work + "/token"))
            script = FileManager.default.currentDirectoryPath + "/scripts/postgres-cluster.sh"
            let cluster = work + "/pg"
            guard system("/bin/bash '\(script)' start '\(cluster)' >'\(work)/pg-start.log' 2>&1") == 0,
                  let port = Int(((try? String(contentsOfFile: cluster + "/port", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) else {
                let log = (try? String(contentsOfFile: work + "/pg-start.log", encoding: .utf8)) ?? ""
                try? FileManager.default.removeItem(atPath: work)
                throw BenchError("no PostgreSQL cluster: \(log)")
            }
            uri = "postgresql://postgres@127.0.0.1:\(port)/lookd_bench"
            guard system("psql -q -h 127.0.0.1 -p \(port) -U postgres -c 'CREATE DATABASE lookd_bench' postgres >/dev/null") == 0 else {
                throw BenchError("CREATE DATABASE failed")
            }
        }

        deinit {
            for server in servers where server.isRunning { server.terminate(); server.waitUntilExit() }
            _ = system("/bin/bash '\(script)' destroy '\(work)/pg' >/dev/null 2>&1")
            try? FileManager.default.removeItem(atPath: work)
        }

        /// Starts `lookd serve` on `store` with the admin token and `extra` arguments; returns its port.
        func start(_ name: String, _ store: String, _ extra: [String] = []) throws -> UInt16 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: lookd)
            process.arguments = ["serve", "--listen", "127.0.0.1:0", "--store", store, "--admin-token-file", work + "/token", "--access-log", "off",
                                 "--threads", "2"] + extra
            let log = work + "/\(name).err"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: log)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            servers.append(process)
            return try HTTPBench.waitForPort(log, process)
        }
    }

    static func run() throws {
        let wrk = try HTTPBench.which("wrk")
        let setup = try Setup(name: "store")
        let lookd = setup.lookd, uri = setup.uri, work = setup.work
        func start(_ name: String, _ store: String) throws -> UInt16 { try setup.start(name, store) }
        let sqlite = try start("sqlite", "sqlite:" + work + "/sqlite")
        let replicas = try (0..<3).map { try start("pg\($0)", uri) }

        // Cached fetch: one published app per store, the same layer, wrk against each in turn.
        let key = try appKey(lookd)
        for port in [sqlite, replicas[0]] { try publish(port, key, after: 0) }
        let target = "/v1/apps/\(key)/look?lang=en"
        // Interleaved, twice each, best of each: the machine's other load shifts between runs.
        var onSQLite = HTTPBench.WrkResult(rate: 0, p99: "?", errors: 0), onPostgres = onSQLite
        for _ in 0..<2 {
            let sqliteRun = try HTTPBench.runWrk(wrk, "http://127.0.0.1:\(sqlite)\(target)", [])
            if sqliteRun.rate > onSQLite.rate { onSQLite = sqliteRun }
            let postgresRun = try HTTPBench.runWrk(wrk, "http://127.0.0.1:\(replicas[0])\(target)", [])
            if postgresRun.rate > onPostgres.rate { onPostgres = postgresRun }
        }
        print("cached fetch, wrk -t2 -c\(HTTPBench.connections) -d\(HTTPBench.wrkSeconds)s, interleaved, best of 2 each:")
        print("  SQLite store:              \(formatRate(onSQLite.rate))   p99 \(onSQLite.p99)")
        print("  PostgreSQL store:          \(formatRate(onPostgres.rate))   p99 \(onPostgres.p99)")
        print(String(format: "  ratio PostgreSQL / SQLite: %.2f× (the hot path does not touch the store: expect ≈ 1.0×)", onPostgres.rate / onSQLite.rate))

        // Publishes per second: 4 clients, each publishing its own app 100 times in a row.
        for (name, port) in [("SQLite", sqlite), ("PostgreSQL", replicas[1])] {
            let keys = try (0..<4).map { _ in try appKey(lookd) }
            let clock = ContinuousClock()
            let began = clock.now
            let failures = Atomic(0)
            DispatchQueue.concurrentPerform(iterations: keys.count) { worker in
                for version in 0..<100 where (try? publish(port, keys[worker], after: version)) == nil { failures.increment() }
            }
            let elapsed = seconds(clock.now - began)
            print("publishes, 4 clients × 100 (each acknowledged after COMMIT), \(name): \(formatRate(Double(400 - failures.value) / elapsed))"
                  + (failures.value > 0 ? " (\(failures.value) failed)" : ""))
        }

        // Publish to served everywhere: replica i % 3 publishes v(i+1); poll all three until each serves it.
        let rotating = try appKey(lookd)
        try publish(replicas[0], rotating, after: 0)
        var latencies: [Double] = []
        let clock = ContinuousClock()
        for version in 1...publishes {
            let began = clock.now
            try publish(replicas[version % 3], rotating, after: version)
            for port in replicas {
                while try servedVersion(port, rotating) != version + 1 {
                    guard seconds(clock.now - began) < 10 else { throw BenchError("v\(version + 1) not served on port \(port) after 10 s") }
                }
            }
            latencies.append(seconds(clock.now - began) * 1000)
        }
        latencies.sort()
        let p50 = latencies[latencies.count / 2], p99 = latencies[latencies.count * 99 / 100]
        print(String(format: "publish to served by all 3 replicas, %d publishes: p50 %.2f ms, p99 %.2f ms (includes the publish itself)", publishes, p50, p99))
    }

    /// A new app key, from `lookd keygen` (`lookd`: the binary's path); the client, failover and propagation suites use it too.
    static func appKey(_ lookd: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lookd)
        process.arguments = ["keygen"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let key = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        process.waitUntilExit()
        return key
    }

    /// Publishes the app's next version (`after`: the current one, 0 for a new app). Throws unless 200/201.
    static func publish(_ port: UInt16, _ key: String, after version: Int) throws {
        let precondition = version == 0 ? "If-None-Match: *" : "If-Match: \"v\(version)\""
        let body = Array("{\"appName\":\"Bench v\(version + 1)\",\"corners\":\"soft\"}".utf8)
        let answer = try HTTPBench.request(port: port, "PUT /v1/apps/\(key)/look", headers: [precondition, "Content-Type: application/json", "Authorization: Bearer \(token)"], body: body)
        guard answer.status == 200 || answer.status == 201 else { throw BenchError("publish answered \(answer.status)") }
    }

    /// The version a replica serves for the app.
    static func servedVersion(_ port: UInt16, _ key: String) throws -> Int? {
        let answer = try HTTPBench.request(port: port, "GET /v1/apps/\(key)/look?lang=en", headers: [], body: nil)
        let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        return object?["version"] as? Int
    }
}
