import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `lookd-bench http`: wrk against lookd's cached `GET /v1/apps/{appKey}/look` and, in the same run,
/// nginx serving the same bytes as a static file on loopback. Prints both rates, the ratio, p99, and
/// lookd's RSS with 10,000 apps stored (and every one of their looks cached).
/// Needs `wrk` and `nginx` (`make bench` installs them) and the release `lookd` next to this binary.
/// Both servers: 2 worker threads/processes, access logs off, 127.0.0.1 only.
let httpSuite = BenchmarkSuite(name: "http") {
    do {
        try HTTPBench.run()
    } catch {
        print("http: skipped: \(error)")
    }
}

enum HTTPBench {
    static let apps = 10_000
    static let connections = 64
    static let seconds = 10
    static let token = "bench-admin-token-5d1c0e9a77"

    static func run() throws {
        let wrk = try which("wrk")
        let nginx = try which("nginx", extra: ["/usr/sbin/nginx"])
        let lookd = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("lookd").path
        guard FileManager.default.isExecutableFile(atPath: lookd) else { throw BenchError("no lookd next to lookd-bench (\(lookd))") }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lookd-http-bench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try Data(token.utf8).write(to: URL(fileURLWithPath: work + "/token"))

        // lookd with 10,000 apps.
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: lookd)
        daemon.arguments = ["serve", "--listen", "127.0.0.1:0", "--data", work + "/data", "--admin-token-file", work + "/token",
                            "--access-log", "off", "--threads", "2"]
        let errorLog = work + "/lookd.err"
        _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
        daemon.standardError = FileHandle(forWritingAtPath: errorLog)
        daemon.standardOutput = FileHandle.nullDevice
        try daemon.run()
        defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }
        let port = try waitForPort(errorLog, daemon)

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
        let rssStored = rss(daemon.processIdentifier)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in stride(from: worker, to: keys.count, by: 4) {
                _ = try? request(port: port, "GET /v1/apps/\(keys[index])/look?lang=en", headers: [], body: nil)
            }
        }
        let rssCached = rss(daemon.processIdentifier)

        // The exact bytes the SDK gets, served by nginx as a static file.
        let target = "/v1/apps/\(keys[0])/look?lang=en"
        let sample = try request(port: port, "GET \(target)", headers: [], body: nil)
        guard sample.status == 200 else { throw BenchError("fetch answered \(sample.status)") }
        let root = work + "/www"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(sample.body).write(to: URL(fileURLWithPath: root + "/look.json"))
        let nginxPort = try freePort()
        let config = """
            worker_processes 2;
            daemon off;
            pid \(work)/nginx.pid;
            error_log \(work)/nginx.err warn;
            events { worker_connections 1024; }
            http {
                access_log off;
                sendfile on;
                tcp_nopush on;
                keepalive_requests 1000000;
                client_body_temp_path \(work)/nginx-body;
                proxy_temp_path \(work)/nginx-proxy;
                fastcgi_temp_path \(work)/nginx-fastcgi;
                uwsgi_temp_path \(work)/nginx-uwsgi;
                scgi_temp_path \(work)/nginx-scgi;
                server {
                    listen 127.0.0.1:\(nginxPort);
                    location / { root \(root); default_type application/json; etag on; }
                }
            }
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: work + "/nginx.conf"))
        let server = Process()
        server.executableURL = URL(fileURLWithPath: nginx)
        server.arguments = ["-c", work + "/nginx.conf", "-p", work]
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate(); server.waitUntilExit() } }
        for _ in 0..<100 where (try? request(port: nginxPort, "GET /look.json", headers: [], body: nil).status) != 200 { usleep(20_000) }

        print("body: \(sample.body.count) bytes; wrk -t2 -c\(connections) -d\(seconds)s --latency; servers: 2 threads / 2 workers, access logs off")
        let statics = try runWrk(wrk, "http://127.0.0.1:\(nginxPort)/look.json")
        let looks = try runWrk(wrk, "http://127.0.0.1:\(port)\(target)")
        let rssAfter = rss(daemon.processIdentifier)
        print("nginx static file:          \(formatRate(statics.rate))   p99 \(statics.p99)")
        print("lookd GET look (cached):    \(formatRate(looks.rate))   p99 \(looks.p99)")
        print(String(format: "ratio lookd / nginx:        %.2f× (target ≥ 0.8×)", looks.rate / statics.rate))
        print("lookd RSS: \(rssStored / 1024) MB with \(apps) apps stored; \(rssCached / 1024) MB after fetching all \(apps) (cache capped by --cache-bytes, default 8 MiB); \(rssAfter / 1024) MB after wrk (target < 64 MB)")
        if statics.errors + looks.errors > 0 { print("wrk socket errors/non-2xx: nginx \(statics.errors), lookd \(looks.errors)") }
    }

    struct WrkResult { var rate: Double; var p99: String; var errors: Int }

    static func runWrk(_ wrk: String, _ url: String) throws -> WrkResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency", url]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var rate = 0.0, p99 = "?", errors = 0
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.contains("Requests/sec:"), let value = fields.last.flatMap({ Double($0) }) { rate = value }
            if fields.first == "99%", fields.count >= 2 { p99 = String(fields[1]) }
            if line.contains("Non-2xx"), let value = fields.last.flatMap({ Int($0) }) { errors += value }
            if line.contains("Socket errors") { errors += line.split(separator: ",").compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +) }
        }
        guard rate > 0 else { throw BenchError("wrk printed no rate:\n\(output)") }
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

    struct Answer { var status: Int; var body: [UInt8] }

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
        let statusLine = String(decoding: received[0..<end], as: UTF8.self).split(separator: " ")
        return Answer(status: statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0, body: Array(received[(end + 4)...]))
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
