import Foundation
import Synchronization
import Testing
import TestPrograms

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
        // With this process's id: the script's watcher removes the cluster when this process is gone, even when
        // it ends without running atexit handlers (issue 27, row 12).
        let (status, output) = try Self.script("start", directory, owner: getpid())
        guard status == 0, let port = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("postgres-cluster.sh start failed (\(status)): \(output)")
        }
        self.port = port
    }

    /// At exit, bounded (ChildProgram needs no run loop, which is gone by then).
    private static func destroyShared() {
        if case .success(let cluster) = shared { _ = try? ChildProgram("/bin/bash", [scriptPath, "destroy", cluster.directory]).wait(within: 120) }
    }

    static var scriptPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/postgres-cluster.sh").path
    }

    /// A new empty database; returns its URI with `password` in the user info (trust authentication ignores it).
    func createDatabase(password: String = "pw-unused") throws -> String {
        let name = "lookd_test_\(databases.add(1, ordering: .relaxed).newValue)"
        let (status, _, error) = try runProgram(try Self.binary("createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", name], timeout: 120)
        guard status == 0 else { throw HarnessError("createdb \(name) failed: \(error)") }
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

    static func binary(_ name: String) throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let path = versions.sorted().reversed().map({ "/usr/lib/postgresql/\($0)/bin/\(name)" })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { throw HarnessError("no \(name)") }
        return path
    }

    /// Runs the cluster script (`command`, then its directory arguments, then `owner`: see the script) with
    /// `runProgram` (at most 5 minutes); its status and its output and errors together.
    static func script(_ command: String, _ directories: String..., owner: pid_t? = nil) throws -> (status: Int32, output: String) {
        let (status, output, errors) = try runProgram("/bin/bash", [scriptPath, command] + directories + (owner.map { [String($0)] } ?? []), timeout: 300)
        return (status, output + errors)
    }
}
