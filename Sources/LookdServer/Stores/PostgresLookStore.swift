import Foundation

/// The PostgreSQL store (`--store postgresql://…`): the shared store of any number of `lookd serve` replicas.
///
/// Semantics as `SQLiteLookStore`: append-only versions; a publish locks the app's row (`SELECT … FOR UPDATE`)
/// and checks its precondition inside the transaction, so replicas racing with the same `If-Match` get one
/// success and PublishConflict for the rest; it is acknowledged only after COMMIT. In the same transaction
/// it sends `NOTIFY lookd_publish, '<appKey>'`, which every replica's listener turns into a cache invalidation.
///
/// Connections: a bounded pool (`PostgresPool`) plus the listener's own. Every session has
/// `statement_timeout` and `lock_timeout` set. Every failure is thrown as StoreError (503 at the edge).
/// Thread-safe.
final class PostgresLookStore: LookStore {
    let displayLocation: String
    private let pool: PostgresPool
    private let listener: PostgresListener

    /// Connects, creates or migrates the schema and returns the store; the listener starts with
    /// `watchChanges`. `secrets` (the password) never appear in errors. Throws StoreError when the database
    /// cannot be reached or its schema is newer than this lookd's.
    init(uri: String, displayLocation: String, secrets: [String], connections: Int, statementTimeoutMilliseconds: Int,
         statistics: StoreStatistics) throws {
        self.displayLocation = displayLocation
        let pool = PostgresPool(uri: uri, secrets: secrets, limit: connections, statementTimeoutMilliseconds: statementTimeoutMilliseconds,
                                statistics: statistics)
        self.pool = pool
        listener = PostgresListener(uri: uri, secrets: secrets, statementTimeoutMilliseconds: statementTimeoutMilliseconds,
                                    statistics: statistics, onLoss: { pool.discardIdle() })
        _ = try pool.withConnection { try PostgresSchema.migrate($0) }
    }

    deinit { close() }

    func close() {
        listener.stop()
        pool.close()
    }

    func watchChanges(_ handler: @escaping @Sendable (StoreChange) -> Void) {
        listener.start(handler)
    }

    func ping() throws {
        _ = try pool.withConnection { try $0.query("SELECT 1") }
    }

    private static let columns = "version, layer, published_at, rolled_back_from"

    func current(appKey: String) throws -> StoredVersion? {
        try pool.withConnection { try Self.current(appKey: appKey, $0) }
    }

    func version(appKey: String, _ version: Int) throws -> StoredVersion? {
        try pool.withConnection { connection in
            try connection.query("SELECT \(Self.columns) FROM look_versions WHERE app_key = $1 AND version = $2::integer",
                                 [appKey, String(version)]).first.map(Self.decode)
        }
    }

    func history(appKey: String, limit: Int) throws -> [StoredVersion] {
        try pool.withConnection { connection in
            try connection.query("SELECT \(Self.columns) FROM look_versions WHERE app_key = $1 ORDER BY version DESC LIMIT $2::integer",
                                 [appKey, String(limit)]).map(Self.decode)
        }
    }

    func appCount() throws -> Int {
        try count("SELECT count(*) FROM apps")
    }

    func versionCount() throws -> Int {
        try count("SELECT count(*) FROM look_versions")
    }

    func appKeys(after: String?, limit: Int) throws -> [String] {
        try pool.withConnection { connection in
            try connection.query("SELECT app_key FROM apps WHERE app_key > $1 ORDER BY app_key LIMIT $2::integer",
                                 [after ?? "", String(limit)]).compactMap { $0.first ?? nil }
        }
    }

    func publish(appKey: String, layer: String, expected: PublishExpectation?, rolledBackFrom: Int?) throws -> StoredVersion {
        try transaction(appKey: appKey) { connection in
            let current = try Self.current(appKey: appKey, connection)?.version
            let stored = try StoredVersion.next(after: current, expected: expected, layer: layer, rolledBackFrom: rolledBackFrom)
            try Self.insert(appKey: appKey, stored, connection)
            return stored
        }
    }

    func importVersions(appKey: String, _ versions: [StoredVersion]) throws -> Int {
        try transaction(appKey: appKey) { connection in
            var added = 0
            for stored in versions {
                if let present = try connection.query("SELECT \(Self.columns) FROM look_versions WHERE app_key = $1 AND version = $2::integer",
                                                      [appKey, String(stored.version)]).first.map(Self.decode) {
                    guard present == stored else { throw StoreError.differs(appKey: appKey, version: stored.version) }
                    continue
                }
                try Self.insert(appKey: appKey, stored, connection)
                added += 1
            }
            return added
        }
    }

    /// Runs `body` in a transaction holding the app's row lock (the row is created first if missing, and
    /// vanishes again on ROLLBACK), notifies the app's change in it, and returns after COMMIT.
    private func transaction<T>(appKey: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        try pool.withConnection { connection in
            try connection.query("BEGIN")
            do {
                try connection.query("INSERT INTO apps(app_key, created_at) VALUES ($1, $2) ON CONFLICT (app_key) DO NOTHING", [appKey, utcTimestamp()])
                try connection.query("SELECT 1 FROM apps WHERE app_key = $1 FOR UPDATE", [appKey])
                let value = try body(connection)
                try connection.query("SELECT pg_notify($1, $2)", [PostgresListener.channel, appKey])
                try connection.query("COMMIT")
                return value
            } catch {
                _ = try? connection.query("ROLLBACK")
                throw error
            }
        }
    }

    private func count(_ sql: String) throws -> Int {
        try pool.withConnection { connection in
            Int(try connection.query(sql).first?.first.flatMap { $0 } ?? "0") ?? 0
        }
    }

    private static func current(appKey: String, _ connection: PostgresConnection) throws -> StoredVersion? {
        try connection.query("SELECT \(columns) FROM look_versions WHERE app_key = $1 ORDER BY version DESC LIMIT 1", [appKey]).first.map(decode)
    }

    private static func insert(appKey: String, _ stored: StoredVersion, _ connection: PostgresConnection) throws {
        try connection.query("INSERT INTO look_versions(app_key, version, layer, published_at, rolled_back_from) VALUES ($1, $2::integer, $3, $4, $5::integer)",
                             [appKey, String(stored.version), stored.layer, stored.publishedAt, stored.rolledBackFrom.map(String.init)])
    }

    private static func decode(_ row: [String?]) -> StoredVersion {
        StoredVersion(version: Int(row[0] ?? "") ?? 0, layer: row[1] ?? "", publishedAt: row[2] ?? "",
                      rolledBackFrom: row[3].flatMap { Int($0) })
    }
}
