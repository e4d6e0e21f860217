import Foundation

/// A publish's connection died during COMMIT (`cause`), so the transaction may or may not have committed; `backend`
/// is the server process that was committing it.
struct CommitLost: Error {
    var cause: StoreError
    var backend: PostgresConnection.Backend
}

/// Settles a publish whose COMMIT outcome is unknown by reading the version back on a new connection (the pool
/// reconnects, to a promoted standby too): the version row equal to the attempted one (same layer, same
/// timestamp to the millisecond), once durable, means it committed; another row, or none once the committing
/// server process is gone, means it did not. While that process still runs (the connection broke but the server is still
/// committing), or while no server answers, it retries every 100 ms for up to `seconds`.
struct PublishReadBack {
    /// How long a publish waits to learn its outcome before answering that it is unknown.
    static let seconds = 5

    let pool: PostgresPool
    let appKey: String
    let attempted: StoredVersion
    let lost: CommitLost

    private enum Finding {
        case committed(StoredVersion)
        case notCommitted
        case stillRunning
    }

    /// The stored version when the publish committed. Throws the original StoreError when it did not (nothing was
    /// stored), PublishOutcomeUnknown when it could not be learnt within `seconds`.
    func resolve() throws -> StoredVersion {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(Self.seconds)
        var latest = "the committing server process was still running"
        while true {
            let finding: Finding?
            do {
                finding = try find()
            } catch let error as StoreError {
                latest = error.description
                finding = nil
            }
            switch finding {
            case .committed(let stored)?: return stored
            case .notCommitted?: throw lost.cause
            case .stillRunning?: latest = "the version is stored but not yet on a synchronous standby, or its server process still runs"
            case nil: break
            }
            guard clock.now < deadline else {
                throw PublishOutcomeUnknown(cause: "COMMIT of v\(attempted.version) of \(appKey) failed (\(lost.cause)); reading it back for \(Self.seconds) s did not settle it: \(latest)")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// A row equal to the attempted one counts as committed only once it is durable as a publish promises: with
    /// `synchronous_standby_names` set, a synchronous standby has flushed the WAL at least up to now (a COMMIT
    /// whose wait for the standby was cut off is visible on the primary before it is replicated).
    private func find() throws -> Finding {
        try pool.withConnection { connection in
            let row = try connection.query("SELECT \(PostgresLookStore.columns) FROM look_versions WHERE app_key = $1 AND version = $2::integer",
                                           [appKey, String(attempted.version)]).first
            if let row {
                guard PostgresLookStore.decode(row) == attempted else { return .notCommitted }
                let durable = try connection.query("""
                    SELECT current_setting('synchronous_standby_names') = '' OR EXISTS (SELECT 1 FROM pg_stat_replication
                        WHERE sync_state IN ('sync', 'quorum') AND flush_lsn >= pg_current_wal_lsn())
                    """).first?.first ?? nil
                return durable == "t" ? .committed(attempted) : .stillRunning
            }
            let running = try connection.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1::integer AND backend_start::text = $2",
                                               [lost.backend.pid, lost.backend.started])
            return running.isEmpty ? .notCommitted : .stillRunning
        }
    }
}
