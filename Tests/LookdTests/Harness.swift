import Foundation
import Locking
import Testing
import TestPrograms

#if canImport(Glibc)
import Glibc
#endif

/// The `lookd` executable built next to the test bundle (`swift build --build-tests` builds it).
func lookdBinary() throws -> String {
    if let path = ProcessInfo.processInfo.environment["LOOKD_BINARY"] { return path }
    var candidates: [String] = []
    if let first = CommandLine.arguments.first {
        var directory = URL(fileURLWithPath: first).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("lookd").path)
            directory = directory.deletingLastPathComponent()
        }
    }
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(packageRoot.appendingPathComponent(".build/debug/lookd").path)
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
        return candidate
    }
    throw HarnessError("lookd binary not found (looked in \(candidates)); run swift build --build-tests")
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A temporary directory removed when the value is released.
final class TemporaryDirectory: @unchecked Sendable {
    let path: String
    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("lookd-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

let adminToken = "test-admin-token-7f3a9c2e41"

/// A real `lookd serve` process on an ephemeral loopback port (127.0.0.1 only).
final class Daemon: @unchecked Sendable {
    /// The `lookd serve` process.
    let process: ChildProgram
    let port: UInt16
    let stderrPath: String
    let dataDirectory: String

    /// Starts lookd with its data in `data` (or, given `store`, with `--store store`; logs stay beside `data`)
    /// and, unless `token` is nil, an admin token file.
    init(data: String, store: String? = nil, token: String? = adminToken, arguments extra: [String] = []) throws {
        dataDirectory = data
        let logs = data + "-logs"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        stderrPath = logs + "/stderr-\(UUID().uuidString).log"
        _ = FileManager.default.createFile(atPath: logs + "/access.log", contents: nil)
        var arguments = ["serve", "--listen", "127.0.0.1:0"] + (store.map { ["--store", $0] } ?? ["--data", data])
            + ["--access-log", logs + "/access.log", "--threads", "2"]
        if let token {
            let tokenFile = logs + "/token"
            try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: tokenFile))
            arguments += ["--admin-token-file", tokenFile]
        }
        var environment = ProcessInfo.processInfo.environment
        environment["LOOKD_ADMIN_TOKEN"] = nil
        process = try ChildProgram(try lookdBinary(), arguments + extra, environment: environment, stderr: stderrPath)
        let stderrPath = stderrPath, process = process
        var found: UInt16?
        _ = eventually(within: 30) {
            let log = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            if let range = log.range(of: "listening on http://127.0.0.1:") {
                found = UInt16(log[range.upperBound...].prefix(while: \.isNumber))
                return true
            }
            return !process.isRunning
        }
        guard let found else {
            process.killAndReap()
            throw HarnessError("lookd did not start: \((try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")")
        }
        port = found
    }

    /// Sends `signal` and waits (at most 60 s, then SIGKILL) for the exit; returns the exit status (the code, or
    /// the signal that ended it).
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        process.send(signal)
        let ended = process.wait(within: 60) ?? process.killAndReap()
        return ended?.status ?? -1
    }

    var log: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
                 admin: Bool = false, json: Bool = true) throws -> HTTPResult {
        var allHeaders = headers
        if admin { allHeaders.append(("Authorization", "Bearer \(adminToken)")) }
        if body != nil && json { allHeaders.append(("Content-Type", "application/json")) }
        return try HTTPClient.send(port: port, method: method, target: target, headers: allHeaders, body: body)
    }

    func get(_ target: String, headers: [(String, String)] = [], admin: Bool = false) throws -> HTTPResult {
        try request("GET", target, headers: headers, admin: admin)
    }

    /// Publishes `name` as the app's next version (expecting version `after`; 0: a new app).
    func publish(_ key: String, after version: Int, name: String) throws -> HTTPResult {
        let precondition = version == 0 ? ("If-None-Match", "*") : ("If-Match", "\"v\(version)\"")
        return try request("PUT", "/v1/apps/\(key)/look", headers: [precondition], body: json(["appName": name]), admin: true)
    }

    /// Kill -9 in the middle of a burst of publishes: one publisher per key publishes version after version (at most
    /// 2,000) until a request fails; once 40 publishes are acknowledged this daemon gets SIGKILL. Returns, once every
    /// publisher has stopped and the process has ended, each key's last acknowledged version.
    func killNineDuringPublishBurst(keys: [String]) -> [String: Int] {
        let acknowledged = LockedValue<[String: Int]>([:])
        // Publishers on their own threads (not concurrentPerform, which would run no more of them than there are
        // CPUs); each stops at its first failed request, which the kill causes.
        let group = DispatchGroup()
        for (worker, key) in keys.enumerated() {
            DispatchQueue.global().async(group: group) {
                var version = 0
                while version < 2_000, let answer = try? self.publish(key, after: version, name: "app \(worker) v\(version + 1)"),
                      answer.status == 200 || answer.status == 201, let stored = answer.json["version"] as? Int {
                    version = stored
                    acknowledged.withLock { $0[key] = stored }
                }
            }
        }
        let enough = eventually(within: 60) { acknowledged.withLock { $0.values.reduce(0, +) } >= 40 }
        #expect(enough, "40 publishes were not acknowledged within 60 s")
        process.send(SIGKILL)
        group.wait()
        #expect(process.wait(within: 60) == .signalled(SIGKILL))
        return acknowledged.withLock { $0 }
    }
}

/// A parsed HTTP/1.1 response.
struct HTTPResult: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]
    /// The server closed the connection after this response.
    var closed: Bool

    func header(_ name: String) -> String? { headers.first(where: { $0.0.lowercased() == name.lowercased() })?.1 }
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]) ?? [:] }
    /// `error.code` of an error body, or nil.
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
}

/// A tiny HTTP/1.1 client over a raw loopback socket: it sends exactly the bytes asked for (so the
/// smuggling tests can send duplicate headers) and reads one response.
enum HTTPClient {
    static func send(port: UInt16, method: String, target: String, headers: [(String, String)], body: [UInt8]?) throws -> HTTPResult {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return try raw(port: port, Array(head.utf8) + (body ?? []), head: method == "HEAD")
    }

    /// Sends `bytes` as is and reads one response (or throws when the server closes without one).
    static func raw(port: UInt16, _ bytes: [UInt8], head: Bool = false) throws -> HTTPResult {
        let fd = try connectLoopback(port: port)
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { break }   // the server may refuse early and close; read what it said
            offset += sent
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var closed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { closed = true; break }
            if count < 0 { break }
            received += buffer[0..<count]
            if let result = parse(received, head: head), result.complete { return result.response }
        }
        guard var result = parse(received, head: head) else {
            throw HarnessError("no HTTP response (closed: \(closed), \(received.count) bytes)")
        }
        result.response.closed = closed
        return result.response
    }

    private static func parse(_ bytes: [UInt8], head: Bool) -> (response: HTTPResult, complete: Bool)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else { return nil }
        let headText = String(decoding: bytes[0..<end], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let body = Array(bytes[(end + 4)...])
        let length = headers.first(where: { $0.0.lowercased() == "content-length" }).flatMap { Int($0.1) } ?? 0
        let expected = (head || status == 304) ? 0 : length
        let closes = headers.contains { $0.0.lowercased() == "connection" && $0.1.lowercased() == "close" }
        return (HTTPResult(status: status, headers: headers, body: Array(body.prefix(expected)), closed: closes), body.count >= expected)
    }
}

/// Runs `lookd` with `arguments` and returns (exit status, standard output, standard error).
func runLookd(_ arguments: [String]) throws -> (Int32, String, String) {
    try runProgram(try lookdBinary(), arguments)
}

/// A new valid app key from `lookd keygen`.
func newAppKey(test: Bool = false) throws -> String {
    let (status, output, _) = try runLookd(["keygen"] + (test ? ["--test"] : []))
    guard status == 0 else { throw HarnessError("keygen failed") }
    return output.trimmingCharacters(in: .whitespacesAndNewlines)
}

func json(_ object: Any) -> [UInt8] {
    Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
}

/// A TCP socket connected to 127.0.0.1:`port`, from `source` (any 127.x.y.z on Linux; nil lets the kernel pick),
/// reads timing out after 10 s. The caller closes it.
func connectLoopback(port: UInt16, from source: String? = nil) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket failed") }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    func withAddress<T>(_ host: String, _ port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
    if let source, withAddress(source, 0, { bind(fd, $0, $1) }) != 0 {
        close(fd)
        throw HarnessError("bind to \(source) failed")
    }
    guard withAddress("127.0.0.1", port, { connect(fd, $0, $1) }) == 0 else {
        close(fd)
        throw HarnessError("connect to 127.0.0.1:\(port) failed")
    }
    return fd
}

/// A loopback connection that sends bytes in steps, for requests that must stay in flight.
final class RawConnection {
    private let fd: Int32

    init(port: UInt16) throws {
        fd = try connectLoopback(port: port)
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw HarnessError("send failed") }
    }

    /// Reads until the peer closes or a whole response (by Content-Length) has arrived; parses the status.
    func readResponse() throws -> (status: Int, text: String) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
            let text = String(decoding: received, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n"), let lengthLine = text[..<end.lowerBound].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
               let length = Int(lengthLine.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)),
               text.utf8.count - text[..<end.upperBound].utf8.count >= length {
                break
            }
        }
        let text = String(decoding: received, as: UTF8.self)
        let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, text)
    }
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass; returns whether it held. The one way a test waits
/// for something another thread or process does: a bounded wait on an observable condition, never a bare sleep.
func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
        if try condition() { return true }
        usleep(20_000)
    } while Date() < deadline
    return try condition()
}
