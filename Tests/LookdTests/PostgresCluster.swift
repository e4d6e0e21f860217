import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Whether Debian's PostgreSQL server binaries are installed (the only reason PostgreSQL tests skip).
let postgresBinariesPresent: Bool = {
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
    return versions.contains { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") }
}()

let postgresSkipReason: Comment = "PostgreSQL tests skipped: no initdb/pg_ctl under /usr/lib/postgresql/*/bin (make test installs Debian's postgresql)"

/// The one PostgreSQL cluster of this test run: a fresh directory, a free 127.0.0.1 port, trust
/// authentication, started on first use by `scripts/postgres-cluster.sh` (as the `postgres` user when root)
/// and removed when the test process exits. Each test takes a database of its own.
final class PostgresCluster: Sendable {
    static let shared: Result<PostgresCluster, HarnessError> = {
        do {
            let cluster = try PostgresCluster()
            atexit { PostgresCluster.destroyShared() }
            return .success(cluster)
        } catch let error as HarnessError {
            return .failure(error)
        } catch {
            return .failure(HarnessError("\(error)"))
        }
    }()

    /// The cluster, started if needed. Throws when it cannot start although the binaries are there.
    static func get() throws -> PostgresCluster { try shared.get() }

    let directory: String
    let port: Int
    private let databases = Atomic<Int>(0)

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lookd-pg-\(getpid())-\(UUID().uuidString.prefix(8))").path
        let (status, output) = try Self.script("start", directory)
        guard status == 0, let port = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("postgres-cluster.sh start failed (\(status)): \(output)")
        }
        self.port = port
    }

    /// At exit: `system` (Foundation's Process needs a run loop that is gone by then).
    private static func destroyShared() {
        if case .success(let cluster) = shared { _ = system("/bin/bash '\(scriptPath)' destroy '\(cluster.directory)' >/dev/null 2>&1") }
    }

    private static var scriptPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/postgres-cluster.sh").path
    }

    /// A new empty database; returns its URI with `password` in the user info (trust authentication ignores it).
    func createDatabase(password: String = "pw-unused") throws -> String {
        let name = "lookd_test_\(databases.add(1, ordering: .relaxed).newValue)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binary("createdb"))
        process.arguments = ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", name]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw HarnessError("createdb \(name) failed") }
        return "postgresql://postgres:\(password)@127.0.0.1:\(port)/\(name)"
    }

    /// Stops the server (`pg_ctl stop -m fast`): every connection is cut.
    func stopServer() throws {
        guard try Self.script("stop", directory).status == 0 else { throw HarnessError("pg_ctl stop failed") }
    }

    /// Starts the stopped server again on the same port.
    func startServer() throws {
        let (status, output) = try Self.script("start-server", directory)
        guard status == 0 else { throw HarnessError("pg_ctl start failed: \(output)") }
    }

    private static func binary(_ name: String) throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let path = versions.sorted().reversed().map({ "/usr/lib/postgresql/\($0)/bin/\(name)" })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { throw HarnessError("no \(name)") }
        return path
    }

    /// Runs the cluster script through `system` (Foundation's Process did not reap it when run from the
    /// shared cluster's lazy initialiser); its output goes to a file.
    private static func script(_ command: String, _ directory: String) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("lookd-pg-script-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = system("/bin/bash '\(scriptPath)' \(command) '\(directory)' >'\(outputPath)' 2>&1 </dev/null")
        let exit = status == -1 ? -1 : (status >> 8) & 0xff
        return (exit, (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }
}
