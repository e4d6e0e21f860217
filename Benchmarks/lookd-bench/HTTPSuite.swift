import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `lookd-bench http`: wrk against lookd's SDK fetch (`GET /v1/apps/{appKey}/look?lang=de`) and, in the same run,
/// nginx tuned as a CDN origin serving the very same bytes as a static file (2 workers, `listen … reuseport deferred`,
/// sendfile, tcp_nodelay, open_file_cache, access_log off; the file under /tmp, readable by nginx's worker user).
/// nginx must answer 200 with identical bytes before anything is measured.
///
/// Scenarios, each `wrk -t2 -c64`, interleaved lookd, nginx, lookd, nginx… and reported as medians with p99:
/// keep-alive, `Connection: close` (a new connection per request), 304 revalidation (`If-None-Match`, each server's
/// own ETag); then 1,000 connections; then the spread: a wrk Lua script choosing among 3,000 apps × 50 languages —
/// a cold first pass, then two more — against the same script pinned to one app and language, interleaved.
/// Needs `wrk` and `nginx` (`make bench` installs them) and the release `lookd` next to this binary.
let httpSuite = BenchmarkSuite(name: "http") {
    do {
        try HTTPBench.run()
    } catch {
        print("http: stopped: \(error)")
    }
}

enum HTTPBench {
    static let apps = 3_000
    static let connections = 64
    static let seconds = Int(ProcessInfo.processInfo.environment["HTTP_BENCH_SECONDS"] ?? "") ?? 8
    static let rounds = Int(ProcessInfo.processInfo.environment["HTTP_BENCH_ROUNDS"] ?? "") ?? 3
    static let token = "bench-admin-token-5d1c0e9a77"
    static let languages = ["ar", "bn", "bg", "ca", "zh-Hans", "zh-Hant", "zh-HK", "hr", "cs", "da", "nl", "en", "fi", "fr", "fr-CA", "de",
                            "el", "gu", "he", "hi", "hu", "id", "it", "ja", "kn", "ko", "ms", "ml", "mr", "nb", "or", "fa", "pl", "pt-BR",
                            "pt-PT", "pa", "ro", "ru", "sk", "sl", "es", "es-419", "sv", "ta", "te", "th", "tr", "uk", "ur", "vi"]

    static func run() throws {
        let wrk = try which("wrk")
        let nginx = try which("nginx", extra: ["/usr/sbin/nginx"])
        let lookd = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("lookd").path
        guard FileManager.default.isExecutableFile(atPath: lookd) else { throw BenchError("no lookd next to lookd-bench (\(lookd))") }
        // Under /tmp, world-readable: nginx's workers run as an unprivileged user (files under /root answer 403).
        let work = "/tmp/lookd-http-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: work) }
        try Data(token.utf8).write(to: URL(fileURLWithPath: work + "/token"))

        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: lookd)
        daemon.arguments = ["serve", "--listen", "127.0.0.1:0", "--data", work + "/data", "--admin-token-file", work + "/token",
                            "--access-log", "off", "--threads", "2", "--max-connections", "4096", "--max-connections-per-ip", "4096"]
        let errorLog = work + "/lookd.err"
        _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
        daemon.standardError = FileHandle(forWritingAtPath: errorLog)
        daemon.standardOutput = FileHandle.nullDevice
        try daemon.run()
        defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }
        let port = try waitForPort(errorLog, daemon)
        let keys = try publishApps(lookd: lookd, port: port)
        let rssStored = rss(daemon.processIdentifier)

        // The exact bytes the SDK gets, served by nginx as a static file.
        let target = "/v1/apps/\(keys[0])/look?lang=de"
        let sample = try request(port: port, "GET \(target)", headers: [], body: nil)
        guard sample.status == 200 else { throw BenchError("fetch answered \(sample.status)") }
        let nginxPort = try startNginx(nginx, work: work, body: sample.body)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: nginx)
        server.arguments = ["-c", work + "/nginx.conf", "-p", work]
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate(); server.waitUntilExit() } }
        var check = Answer(status: 0, body: [], etag: nil)
        for _ in 0..<100 where check.status != 200 {
            check = (try? request(port: nginxPort, "GET /look.json", headers: [], body: nil)) ?? check
            if check.status != 200 { usleep(20_000) }
        }
        guard check.status == 200, check.body == sample.body else {
            throw BenchError("nginx answered \(check.status) with \(check.body.count) bytes, not 200 with the \(sample.body.count) bytes lookd serves")
        }
        guard let lookdTag = sample.etag, let nginxTag = check.etag else { throw BenchError("no ETag to revalidate with") }
        do {
            try measure(wrk, port: port, target: target, nginxPort: nginxPort, tags: (lookdTag, nginxTag), keys: keys, work: work, daemon: daemon, sample: sample)
        } catch {
            let log = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            print("lookd \(daemon.isRunning ? "is running" : "exited with \(daemon.terminationStatus) (reason \(daemon.terminationReason.rawValue))"); its log:\n\(log.suffix(2000))")
            throw error
        }
        print("lookd RSS: \(rssStored / 1024) MB with \(apps) apps stored; \(rss(daemon.processIdentifier) / 1024) MB after the runs")
    }

    static func measure(_ wrk: String, port: UInt16, target: String, nginxPort: UInt16, tags: (String, String), keys: [String], work: String,
                        daemon: Process, sample: Answer) throws {
        let (lookdTag, nginxTag) = tags
        let lookdURL = "http://127.0.0.1:\(port)\(target)"
        let nginxURL = "http://127.0.0.1:\(nginxPort)/look.json"

        print("body: \(sample.body.count) bytes, nginx serves the same bytes with 200; wrk -t2 -c\(connections) -d\(seconds)s --latency, \(rounds) interleaved rounds, medians")
        print("servers: lookd --threads 2 (2 loops + workers); nginx worker_processes 2, reuseport, deferred accept, sendfile, tcp_nodelay, open_file_cache; access logs off")
        let scenarios: [(name: String, lookd: [String], nginx: [String])] = [
            ("keep-alive", [], []),
            ("Connection: close", ["-H", "Connection: close"], ["-H", "Connection: close"]),
            ("304 (If-None-Match)", ["-H", "If-None-Match: \(lookdTag)"], ["-H", "If-None-Match: \(nginxTag)"]),
        ]
        for scenario in scenarios {
            var ours: [WrkResult] = [], theirs: [WrkResult] = []
            for _ in 0..<rounds {
                ours.append(try runWrk(wrk, lookdURL, scenario.lookd))
                theirs.append(try runWrk(wrk, nginxURL, scenario.nginx))
            }
            report(scenario.name, ours, theirs)
        }
        var ours: [WrkResult] = [], theirs: [WrkResult] = []
        for _ in 0..<2 {
            ours.append(try runWrk(wrk, lookdURL, [], connections: 1000))
            theirs.append(try runWrk(wrk, nginxURL, [], connections: 1000))
        }
        report("keep-alive, 1,000 connections", ours, theirs)

        // Cache misses: 3,000 apps × 50 languages at random (the default cache holds every app's shared part but only
        // about 1,200 of the 150,000 responses, so nearly every request builds its language's response), against the
        // same script pinned to one app and language.
        try keys.joined(separator: "\n").write(toFile: work + "/keys.txt", atomically: true, encoding: .utf8)
        try keys[0].write(toFile: work + "/key.txt", atomically: true, encoding: .utf8)
        try languages.joined(separator: "\n").write(toFile: work + "/langs.txt", atomically: true, encoding: .utf8)
        try "de".write(toFile: work + "/lang.txt", atomically: true, encoding: .utf8)
        try luaScript(keys: work + "/keys.txt", languages: work + "/langs.txt").write(toFile: work + "/spread.lua", atomically: true, encoding: .utf8)
        try luaScript(keys: work + "/key.txt", languages: work + "/lang.txt").write(toFile: work + "/pinned.lua", atomically: true, encoding: .utf8)
        // The first pass is cold: most of the 150,000 (app, language) pairs are requested for the first time since the
        // daemon started, so each first request builds its language on the Swift path. The next passes find them in
        // the fetch table (every language of an app kept beside its shared pieces). Pinned runs interleave with both.
        let cold = try runWrk(wrk, "http://127.0.0.1:\(port)/", ["-s", work + "/spread.lua"])
        var spread: [WrkResult] = [], pinned: [WrkResult] = []
        pinned.append(try runWrk(wrk, "http://127.0.0.1:\(port)/", ["-s", work + "/pinned.lua"]))
        for _ in 0..<2 {
            spread.append(try runWrk(wrk, "http://127.0.0.1:\(port)/", ["-s", work + "/spread.lua"]))
            pinned.append(try runWrk(wrk, "http://127.0.0.1:\(port)/", ["-s", work + "/pinned.lua"]))
        }
        let spreadRate = median(spread.map(\.rate)), pinnedRate = median(pinned.map(\.rate))
        print("spread: \(apps) apps × \(languages.count) languages at random; pinned: the same script on one app and language")
        print("  pinned to one                  \(formatRate(pinnedRate)) p99 \(pinned.map(\.p99).joined(separator: "/"))")
        print("  spread, first pass (cold)      \(formatRate(cold.rate)) p99 \(cold.p99)   "
              + String(format: "ratio %.2f× of pinned (each pair's first request builds its language)", cold.rate / pinnedRate))
        print("  spread, next passes            \(formatRate(spreadRate)) p99 \(spread.map(\.p99).joined(separator: "/"))   "
              + String(format: "ratio %.2f× of pinned (target ≥ 0.7×)", spreadRate / pinnedRate))
        let table = (try? request(port: port, "GET /metrics", headers: [], body: nil)).map { String(decoding: $0.body, as: UTF8.self) } ?? ""
        let held = table.split(separator: "\n").filter { $0.hasPrefix("lookd_fetch_table_") }.joined(separator: ", ")
        print("  fetch table after the passes: \(held)")
        spread.append(cold)
        let errors = (ours + theirs + spread + pinned).map(\.errors).reduce(0, +)
        if errors > 0 { print("wrk socket errors / non-2xx-3xx responses: \(errors)") }
    }

    /// Publishes `apps` new apps (one layer each, every publish fsynced before its 201) and returns their keys.
    static func publishApps(lookd: String, port: UInt16) throws -> [String] {
        let keygen = Process()
        keygen.executableURL = URL(fileURLWithPath: lookd)
        keygen.arguments = ["keygen", "--count", String(apps)]
        let pipe = Pipe()
        keygen.standardOutput = pipe
        try keygen.run()
        let keys = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
        keygen.waitUntilExit()
        guard keys.count == apps else { throw BenchError("keygen gave \(keys.count) keys") }
        let layer = Array(##"{"accent":{"light":"#FF6A00","dark":"#FF9F0A"},"appName":"Ledgerly","corners":"soft","font":"rounded","headerStyle":"team","replyExpectation":{"en":"Usually replies within an hour","de":"Antwortet meist innerhalb einer Stunde"},"topics":["billing","bug",{"id":"export","label":{"en":"Exports","de":"Exporte"},"symbol":"square.and.arrow.up","prefill":"I need help exporting my data."}]}"##.utf8)
        let clock = ContinuousClock()
        let start = clock.now
        let failures = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in stride(from: worker, to: keys.count, by: 8) {
                let status = (try? request(port: port, "PUT /v1/apps/\(keys[index])/look", headers: ["If-None-Match: *", "Content-Type: application/json", "Authorization: Bearer \(token)"], body: layer).status) ?? 0
                if status != 201 { failures.increment() }
            }
        }
        let publishSeconds = seconds(clock.now - start)
        guard failures.value == 0 else { throw BenchError("\(failures.value) publishes failed") }
        print("published \(apps) apps in \(String(format: "%.1f", publishSeconds)) s (\(Int(Double(apps) / publishSeconds))/s, each fsynced before its 201)")
        return keys
    }

    /// Writes `body` as `www/look.json` and the tuned nginx configuration; returns nginx's port.
    static func startNginx(_ nginx: String, work: String, body: [UInt8]) throws -> UInt16 {
        let root = work + "/www"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try Data(body).write(to: URL(fileURLWithPath: root + "/look.json"))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: root + "/look.json")
        let nginxPort = try freePort()
        let config = """
            worker_processes 2;
            daemon off;
            pid \(work)/nginx.pid;
            error_log \(work)/nginx.err warn;
            events { worker_connections 4096; }
            http {
                access_log off;
                sendfile on;
                tcp_nodelay on;
                keepalive_requests 1000000;
                open_file_cache max=1000 inactive=60s;
                open_file_cache_valid 60s;
                client_body_temp_path \(work)/nginx-body;
                proxy_temp_path \(work)/nginx-proxy;
                fastcgi_temp_path \(work)/nginx-fastcgi;
                uwsgi_temp_path \(work)/nginx-uwsgi;
                scgi_temp_path \(work)/nginx-scgi;
                server {
                    listen 127.0.0.1:\(nginxPort) reuseport deferred;
                    location / { root \(root); default_type application/json; etag on; }
                }
            }
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: work + "/nginx.conf"))
        return nginxPort
    }

    /// A wrk script fetching a random key × language from two files of lines.
    static func luaScript(keys: String, languages: String) -> String {
        """
        local keys, languages = {}, {}
        for line in io.lines("\(keys)") do keys[#keys + 1] = line end
        for line in io.lines("\(languages)") do languages[#languages + 1] = line end
        math.randomseed(os.time())
        request = function()
          return wrk.format("GET", "/v1/apps/" .. keys[math.random(#keys)] .. "/look?lang=" .. languages[math.random(#languages)])
        end
        """
    }

    static func report(_ name: String, _ ours: [WrkResult], _ theirs: [WrkResult]) {
        let lookdRate = median(ours.map(\.rate)), nginxRate = median(theirs.map(\.rate))
        let padded = name.padding(toLength: 30, withPad: " ", startingAt: 0)
        let p99 = median(ours.map(\.p99Milliseconds))
        print("\(padded) lookd \(formatRate(lookdRate)) p99 \(ours.map(\.p99).joined(separator: "/"))   nginx \(formatRate(nginxRate)) p99 \(theirs.map(\.p99).joined(separator: "/"))   "
              + String(format: "ratio %.2f× (target ≥ 1.0×); lookd's median p99 %.2f ms", lookdRate / nginxRate, p99)
              + (connectionsOf(name) == 64 ? (p99 < 5 ? " (target < 5 ms ✓)" : " (target < 5 ms ✗)") : ""))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    struct WrkResult {
        var rate: Double
        var p99: String
        var errors: Int

        /// wrk's p99 (`850.00us`, `6.31ms`, `1.02s`) in milliseconds.
        var p99Milliseconds: Double {
            for (suffix, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where p99.hasSuffix(suffix) {
                return (Double(p99.dropLast(suffix.count)) ?? .nan) * scale
            }
            return .nan
        }
    }

    /// The connections a scenario of `report` ran with (its name says when they are not the default 64).
    static func connectionsOf(_ name: String) -> Int { name.contains("1,000 connections") ? 1_000 : connections }

    static func runWrk(_ wrk: String, _ url: String, _ extra: [String], connections: Int = connections) throws -> WrkResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency"] + extra + [url]
        let pipe = Pipe(), standardError = Pipe()
        process.standardOutput = pipe
        process.standardError = standardError
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            + String(decoding: standardError.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var rate = 0.0, p99 = "?", errors = 0
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.contains("Requests/sec:"), let value = fields.last.flatMap({ Double($0) }) { rate = value }
            if fields.first == "99%", fields.count >= 2 { p99 = String(fields[1]) }
            if line.contains("Non-2xx"), let value = fields.last.flatMap({ Int($0) }) { errors += value }
            if line.contains("Socket errors") { errors += line.split(separator: ",").compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +) }
        }
        guard rate > 0 else { throw BenchError("wrk \(process.arguments ?? []) printed no rate:\n\(output)") }
        return WrkResult(rate: rate, p99: p99, errors: errors)
    }

    /// Resident set size in KB (/proc/PID/status VmRSS).
    static func rss(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }

    static func which(_ name: String, extra: [String] = []) throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" } + extra
        guard let found = path.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BenchError("\(name) is not installed (make bench installs it)")
        }
        return found
    }

    static func waitForPort(_ log: String, _ process: Process) throws -> UInt16 {
        for _ in 0..<500 {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on http://127.0.0.1:"), let port = UInt16(text[range.upperBound...].prefix(while: \.isNumber)) {
                return port
            }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        throw BenchError("lookd did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }

    /// A free loopback port (bound and released; the small race is harmless for a benchmark).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw BenchError("no free port") }
        return UInt16(bigEndian: address.sin_port)
    }

    struct Answer { var status: Int; var body: [UInt8]; var etag: String? }

    /// One request over a fresh connection (`Connection: close`); reads to EOF.
    static func request(port: UInt16, _ line: String, headers: [String], body: [UInt8]?) throws -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw BenchError("connect") }
        var head = "\(line) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + (body ?? [])
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        guard let end = (0..<max(0, received.count - 3)).first(where: { received[$0] == 13 && received[$0 + 1] == 10 && received[$0 + 2] == 13 && received[$0 + 3] == 10 }) else {
            throw BenchError("no response")
        }
        let lines = String(decoding: received[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ")
        let etag = lines.first { $0.lowercased().hasPrefix("etag:") }.map { String($0.dropFirst(5)).trimmingCharacters(in: .whitespaces) }
        return Answer(status: statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0, body: Array(received[(end + 4)...]), etag: etag)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A tiny thread-safe counter for the publishing workers.
final class Atomic: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int
    init(_ count: Int) { self.count = count }
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
