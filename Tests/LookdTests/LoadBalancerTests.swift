import Foundation
import Testing
import TestPrograms

#if canImport(Glibc)
import Glibc
#endif

extension PostgresStoreTests {
    /// The nginx configuration of docs/deployment.md, run as written (ports replaced) in front of two replicas.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "nginx is not installed (apt-get install nginx)"))
    func theDocumentedNginxConfigurationBalancesTwoReplicas() throws {
        let logs = try TemporaryDirectory()
        let (_, replicas) = try Self.replicas(2, logs: logs)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/deployment.md"), encoding: .utf8)
        let start = try #require(document.range(of: "```nginx\n"))
        let end = try #require(document.range(of: "```", range: start.upperBound..<document.endIndex))
        let port = try freePort()
        let configuration = String(document[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "127.0.0.1:8081", with: "127.0.0.1:\(replicas[0].port)")
            .replacingOccurrences(of: "127.0.0.1:8082", with: "127.0.0.1:\(replicas[1].port)")
            .replacingOccurrences(of: "listen 127.0.0.1:8080", with: "listen 127.0.0.1:\(port)")
        let prefix = logs.path + "/nginx"
        try FileManager.default.createDirectory(atPath: prefix + "/logs", withIntermediateDirectories: true)
        try Data(configuration.utf8).write(to: URL(fileURLWithPath: prefix + "/nginx.conf"))
        let nginx = try ChildProgram("/usr/sbin/nginx", ["-p", prefix, "-c", prefix + "/nginx.conf", "-e", prefix + "/logs/error.log",
                                                         "-g", "daemon off; pid \(prefix)/nginx.pid;"])
        defer {
            nginx.send(SIGTERM)
            if nginx.wait(within: 30) == nil { nginx.killAndReap() }
        }
        #expect(eventually(within: 10) { (try? HTTPClient.send(port: port, method: "GET", target: "/healthz", headers: [], body: nil).status) == 200 },
                "nginx did not answer: \((try? String(contentsOfFile: prefix + "/logs/error.log", encoding: .utf8)) ?? "")")

        let key = try newAppKey()
        let path = "/v1/apps/\(key)/look"
        let admin = [("Authorization", "Bearer \(adminToken)"), ("Content-Type", "application/json")]
        let first = try HTTPClient.send(port: port, method: "PUT", target: path, headers: admin + [("If-None-Match", "*")], body: json(["appName": "Balanced"]))
        #expect(first.status == 201)
        for _ in 0..<6 { #expect(try HTTPClient.send(port: port, method: "GET", target: path, headers: [], body: nil).json["version"] as? Int == 1) }
        let second = try HTTPClient.send(port: port, method: "PUT", target: path, headers: admin + [("If-Match", "\"v1\"")], body: json(["appName": "Balanced 2"]))
        #expect(second.status == 200)
        // Whichever replica nginx picks serves v2 within a second.
        #expect(try eventually(within: 1) {
            try (0..<4).allSatisfy { _ in try HTTPClient.send(port: port, method: "GET", target: path, headers: [], body: nil).json["version"] as? Int == 2 }
        })
        // One replica gone: nginx sends every request to the other.
        replicas[0].stop(SIGKILL)
        for _ in 0..<6 { #expect(try HTTPClient.send(port: port, method: "GET", target: path, headers: [], body: nil).status == 200) }
    }
}

/// A TCP port that was free a moment ago on 127.0.0.1.
func freePort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket failed") }
    defer { close(fd) }
    guard let port = bindLoopback(fd) else { throw HarnessError("bind failed") }
    return port
}

/// Binds `fd` to 127.0.0.1 on a port the kernel picks and returns that port, or nil when binding fails.
func bindLoopback(_ fd: Int32) -> UInt16? {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    return bound ? UInt16(bigEndian: address.sin_port) : nil
}
