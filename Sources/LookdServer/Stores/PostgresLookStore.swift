import Foundation

/// The PostgreSQL store (`--store postgresql://…`): the shared store of any number of `lookd serve` replicas.
///
/// Semantics as `SQLiteLookStore`: append-only versions; a publish locks the app's row (`SELECT … FOR UPDATE`)
/// and checks its precondition inside the transaction, so replicas racing with the same `If-Match` get one
/// success and PublishConflict for the rest; it is acknowledged only after COMMIT. In the same transaction
/// it appends the version's change event and webhook deliveries (`FeedSQL`; the `feed_state` row lock makes events
/// commit in `seq` order) and sends `NOTIFY lookd_publish, '<appKey> <version>'`, which every replica's listener turns
/// into a cache invalidation (of what is older than that version) and a wake-up of its feed waiters and webhook deliverer.
///
/// Connections: a bounded pool (`PostgresPool`) plus the listener's own. Every session has
/// `statement_timeout` and `lock_timeout` set. Every failure is thrown as StoreError, except a
/// publish whose connection died during COMMIT: it is settled by reading the version back (`PublishReadBack`).
/// Thread-safe.
final class PostgresLookStore: LookStore {
    let displayLocation: String
    let pool: PostgresPool
    private let listener: PostgresListener
    /// `--store-busy-timeout`: every statement's bound, and a publish's COMMIT's (`PostgresConnection.commit`).
    private let statementTimeoutMilliseconds: Int

    /// Connects, creates or migrates the schema and returns the store; the listener starts with
    /// `watchChanges`. `secrets` (the password) never appear in errors. Throws StoreError when the database
    /// cannot be reached or its schema is newer than this lookd's.
    init(uri: String, displayLocation: String, secrets: [String], connections: Int, statementTimeoutMilliseconds: Int,
         statistics: StoreStatistics) throws {
        self.displayLocation = displayLocation
        self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
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

    static let columns = "version, layer, published_at, rolled_back_from"

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

    func currentVersions(appKeys: [String]) throws -> [String: Int] {
        var versions: [String: Int] = [:]
        for start in stride(from: 0, to: appKeys.count, by: 500) {
            let batch = appKeys[start..<min(appKeys.count, start + 500)]
            // A text[] literal: each key double-quoted, with `\` and `"` escaped.
            let array = "{" + batch.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
                .joined(separator: ",") + "}"
            let rows = try pool.withConnection { connection in
                try connection.query("SELECT app_key, max(version) FROM look_versions WHERE app_key = ANY($1::text[]) GROUP BY app_key", [array])
            }
            for row in rows {
                if let key = row[0], let version = row[1].flatMap({ Int($0) }) { versions[key] = version }
            }
        }
        return versions
    }

    func publish(appKey: String, layer: String, expected: PublishExpectation?, rolledBackFrom: Int?, kind: ChangeKind) throws -> StoredVersion {
        try publishing(appKey: appKey) { connection in
            let current = try Self.current(appKey: appKey, connection)?.version
            let stored = try StoredVersion.next(after: current, expected: expected, layer: layer, rolledBackFrom: rolledBackFrom)
            try Self.insert(appKey: appKey, stored, connection)
            _ = try FeedSQL.append(appKey: appKey, stored: stored, kind: kind, connection)
            return stored
        }
    }

    /// A `transaction` whose `body` appends one version and returns it. When the connection dies during COMMIT, the
    /// outcome is settled by reading the version back (`PublishReadBack`): the version when it committed, the
    /// original StoreError when it did not, PublishOutcomeUnknown when that cannot be learnt.
    func publishing(appKey: String, _ body: (PostgresConnection) throws -> StoredVersion) throws -> StoredVersion {
        var attempted: StoredVersion?
        do {
            return try committing(appKey: appKey, version: \.version) { connection in
                let stored = try body(connection)
                attempted = stored
                return stored
            }
        } catch let lost as CommitLost {
            guard let attempted else { throw lost.cause }
            return try PublishReadBack(pool: pool, appKey: appKey, attempted: attempted, lost: lost).resolve()
        }
    }

    func changes(after: Int64, limit: Int) throws -> ChangePage {
        // One snapshot for the page and the feed's state (REPEATABLE READ): `latest` never runs ahead of the events read.
        try plainTransaction(isolation: "REPEATABLE READ READ ONLY") { try FeedSQL.changes(after: after, limit: limit, $0) }
    }

    func compactChanges(before cutoffMilliseconds: Int64) throws -> Int {
        try plainTransaction { try FeedSQL.compact(before: cutoffMilliseconds, $0) }
    }

    func registerReceivers(_ receivers: [(id: String, url: String)]) throws {
        try plainTransaction { try FeedSQL.register(receivers, $0) }
    }

    func claimDeliveries(receiver: String, owner: String, nowMilliseconds: Int64, leaseMilliseconds: Int64, limit: Int) throws -> [WebhookDelivery] {
        try plainTransaction { connection in
            // Replicas claiming the same receiver take turns (the lock is the transaction's): the concurrency bound holds
            // over all of them and no two lease the same delivery.
            try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", ["lookd-webhook:" + receiver])
            return try FeedSQL.due(receiver: receiver, now: nowMilliseconds, limit: limit, connection).filter {
                try FeedSQL.lease($0, owner: owner, now: nowMilliseconds, until: nowMilliseconds + leaseMilliseconds, connection)
            }
        }
    }

    func finishDelivery(_ delivery: WebhookDelivery, owner: String, outcome: DeliveryOutcome, nowMilliseconds: Int64) throws -> Bool {
        try plainTransaction { try FeedSQL.finish(delivery, owner: owner, outcome: outcome, now: nowMilliseconds, $0) }
    }

    func deliveries(receiver: String) throws -> [DeliveryRecord] {
        try pool.withConnection { try FeedSQL.deliveries(receiver: receiver, $0) }
    }

    /// Runs `body` in a transaction (`isolation`: a `BEGIN` mode, nil for the default) and returns after COMMIT.
    func plainTransaction<T>(isolation: String? = nil, _ body: (PostgresConnection) throws -> T) throws -> T {
        try pool.withConnection { connection in
            try connection.query(isolation.map { "BEGIN ISOLATION LEVEL \($0)" } ?? "BEGIN")
            do {
                let value = try body(connection)
                try connection.commit(timeoutMilliseconds: statementTimeoutMilliseconds)
                return value
            } catch {
                _ = try? connection.query("ROLLBACK")
                throw error
            }
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
    /// A connection lost during COMMIT is thrown as the StoreError it was (the transaction may have committed: callers
    /// that must know use `publishing`).
    func transaction<T>(appKey: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try committing(appKey: appKey, body)
        } catch let lost as CommitLost {
            throw lost.cause
        }
    }

    /// `transaction`, but a connection lost during COMMIT is thrown as CommitLost.
    /// `version`: the version `body`'s value made current, for the notification (nil: none known).
    private func committing<T>(appKey: String, version: (T) -> Int? = { _ in nil }, _ body: (PostgresConnection) throws -> T) throws -> T {
        var backend: PostgresConnection.Backend?
        do {
            return try pool.withConnection { connection in
                try connection.query("BEGIN")
                do {
                    try connection.query("INSERT INTO apps(app_key, created_at) VALUES ($1, $2) ON CONFLICT (app_key) DO NOTHING", [appKey, utcTimestamp()])
                    try connection.query("SELECT 1 FROM apps WHERE app_key = $1 FOR UPDATE", [appKey])
                    let value = try body(connection)
                    try connection.query("SELECT pg_notify($1, $2)", [PostgresListener.channel, PostgresListener.payload(appKey: appKey, version: version(value))])
                    backend = connection.backend
                    try connection.commit(timeoutMilliseconds: statementTimeoutMilliseconds)
                    return value
                } catch {
                    _ = try? connection.query("ROLLBACK")
                    throw error
                }
            }
        } catch let error as StoreError {
            guard let backend, PostgresConnection.isConnectionLoss(error) else { throw error }
            throw CommitLost(cause: error, backend: backend)
        }
    }

    private func count(_ sql: String) throws -> Int {
        try pool.withConnection { connection in
            Int(try connection.query(sql).first?.first.flatMap { $0 } ?? "0") ?? 0
        }
    }

    static func current(appKey: String, _ connection: PostgresConnection) throws -> StoredVersion? {
        try connection.query("SELECT \(columns) FROM look_versions WHERE app_key = $1 ORDER BY version DESC LIMIT 1", [appKey]).first.map(decode)
    }

    static func insert(appKey: String, _ stored: StoredVersion, _ connection: PostgresConnection) throws {
        try connection.query("INSERT INTO look_versions(app_key, version, layer, published_at, rolled_back_from) VALUES ($1, $2::integer, $3, $4, $5::integer)",
                             [appKey, String(stored.version), stored.layer, stored.publishedAt, stored.rolledBackFrom.map(String.init)])
    }

    static func decode(_ row: [String?]) -> StoredVersion {
        StoredVersion(version: Int(row[0] ?? "") ?? 0, layer: row[1] ?? "", publishedAt: row[2] ?? "",
                      rolledBackFrom: row[3].flatMap { Int($0) })
    }
}
