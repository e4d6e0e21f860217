import Foundation

/// A PostgreSQL primary and a streaming standby of it (`scripts/postgres-cluster.sh start` and `standby`:
/// `pg_basebackup -R`), each in a directory of its own under `directory`, with a database `lookd`. With
/// `synchronous`, the primary then sets `synchronous_standby_names = '*'` (after the base backup, so the standby,
/// once promoted, does not wait for a standby of its own) and the pair is ready once the standby reports `sync`.
/// `destroy()` stops and removes both servers; call it (the tests do, in a `defer`; should the test process die
/// first, the script's watchers remove them).
final class StandbyPair: Sendable {
    let primaryDirectory: String
    let standbyDirectory: String
    let primaryPort: Int
    let standbyPort: Int

    init(directory: String, synchronous: Bool) throws {
        primaryDirectory = directory + "/primary"
        standbyDirectory = directory + "/standby"
        let (status, output) = try PostgresCluster.script("start", primaryDirectory, owner: getpid())
        guard status == 0, let primaryPort = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("postgres-cluster.sh start failed (\(status)): \(output)")
        }
        self.primaryPort = primaryPort
        _ = try psql("postgresql://postgres@127.0.0.1:\(primaryPort)/postgres", "CREATE DATABASE lookd")
        let (standbyStatus, standbyOutput) = try PostgresCluster.script("standby", standbyDirectory, primaryDirectory, owner: getpid())
        guard standbyStatus == 0, let standbyPort = Int(standbyOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            _ = try? PostgresCluster.script("destroy", primaryDirectory)
            throw HarnessError("postgres-cluster.sh standby failed (\(standbyStatus)): \(standbyOutput)")
        }
        self.standbyPort = standbyPort
        let primary = "postgresql://postgres@127.0.0.1:\(primaryPort)/postgres"
        if synchronous {
            _ = try psql(primary, "ALTER SYSTEM SET synchronous_standby_names = '*'")
            _ = try psql(primary, "SELECT pg_reload_conf()")
        }
        let state = synchronous ? "sync" : "async"
        guard try eventually(within: 20, { try psql(primary, "SELECT sync_state FROM pg_stat_replication") == state }) else {
            destroy()
            throw HarnessError("the standby never reported \(state)")
        }
    }

    /// The libpq URI lookd uses: both hosts, the writable one wanted.
    func uri(password: String) -> String {
        "postgresql://postgres:\(password)@127.0.0.1:\(primaryPort),127.0.0.1:\(standbyPort)/lookd?target_session_attrs=read-write&connect_timeout=2"
    }

    /// A URI of the `lookd` database on one server only.
    func uri(port: Int) -> String { "postgresql://postgres@127.0.0.1:\(port)/lookd" }

    /// Stops the primary at once, as a failed machine (`pg_ctl stop -m immediate`).
    func crashPrimary() throws {
        guard try PostgresCluster.script("crash", primaryDirectory).status == 0 else { throw HarnessError("pg_ctl stop -m immediate failed") }
    }

    /// Stops the standby (`pg_ctl stop -m fast`), keeping its directory.
    func stopStandby() throws {
        guard try PostgresCluster.script("stop", standbyDirectory).status == 0 else { throw HarnessError("pg_ctl stop of the standby failed") }
    }

    /// Starts the stopped standby again on its port; it resumes streaming from the primary.
    func startStandby() throws {
        let (status, output) = try PostgresCluster.script("start-server", standbyDirectory)
        guard status == 0 else { throw HarnessError("pg_ctl start of the standby failed: \(output)") }
    }

    /// Promotes the standby (`pg_ctl promote`, waiting until it accepts writes).
    func promoteStandby() throws {
        let (status, output) = try PostgresCluster.script("promote", standbyDirectory)
        guard status == 0 else { throw HarnessError("pg_ctl promote failed: \(output)") }
    }

    /// Stops and removes both servers (idempotent).
    func destroy() {
        _ = try? PostgresCluster.script("destroy", standbyDirectory)
        _ = try? PostgresCluster.script("destroy", primaryDirectory)
    }
}
