import CSQLite
import Foundation
import Locking

/// The SQLite store under `--data DIR`: `looks.sqlite3` in WAL mode, plus a `lock` file that keeps a
/// second daemon off the same directory.
///
/// Durability: `synchronous=FULL` in WAL mode fsyncs the WAL on every COMMIT, and a publish is
/// acknowledged only after COMMIT returns — so neither kill -9 nor a power cut loses an acknowledged
/// version. (NORMAL would survive kill -9, since the WAL is in the OS's page cache, but could lose the
/// last commits on power loss; publishes are rare, so FULL's fsync costs nothing that matters.) A
/// version row is written in one transaction, so a crash never leaves a half-written look.
///
/// Versions are append-only: triggers refuse UPDATE and DELETE on `look_versions`; a rollback appends
/// a copy of the old layer as a new version. Each version's change event (and its webhook deliveries) is written
/// in the version's transaction (`FeedSQL`).
///
/// Concurrency: one writer connection and one reader connection, each behind a lock (WAL lets the
/// reader run while the writer commits). `busy_timeout` is 5 s by default (`--store-busy-timeout`). Every SQLite failure is thrown as
/// StoreError (which the services turn into their `StoreUnavailableError`).
final class SQLiteLookStore: LookStore {
    static let schemaVersion = 2
    private let writer: LockedValue<SQLiteConnection>
    private let reader: LockedValue<SQLiteConnection>
    private let lockDescriptor: Int32
    let path: String
    let displayLocation: String
    private let statistics: StoreStatistics

    /// Opens or creates the store in `directory` (created if missing). `busyTimeoutMilliseconds`: how
    /// long a statement waits for a lock held by another connection before failing with SQLITE_BUSY
    /// (then StoreError). Throws a ConfigurationError when the directory cannot be created or another lookd
    /// holds it, StoreError when SQLite fails.
    init(directory: String, busyTimeoutMilliseconds: Int32 = 5000, statistics: StoreStatistics = StoreStatistics()) throws {
        self.statistics = statistics
        statistics.connectionsLimit.store(2, ordering: .relaxed)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ConfigurationError("cannot create the data directory \(directory): \(error.localizedDescription)")
        }
        let lockPath = directory + "/lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ConfigurationError("cannot open \(lockPath)") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            Glibc.close(fd)
            throw ConfigurationError("another lookd is using \(directory) (\(lockPath) is locked)")
        }
        lockDescriptor = fd
        displayLocation = "sqlite:" + directory
        path = directory + "/looks.sqlite3"
        let write = try SQLiteConnection(path: path)
        sqlite3_busy_timeout(write.handle, busyTimeoutMilliseconds)
        try write.query("PRAGMA journal_mode=WAL")
        try write.execute("""
            PRAGMA synchronous=FULL;
            PRAGMA foreign_keys=ON;
            CREATE TABLE IF NOT EXISTS apps(
                app_key TEXT PRIMARY KEY,
                created_at TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS look_versions(
                app_key TEXT NOT NULL REFERENCES apps(app_key),
                version INTEGER NOT NULL CHECK (version >= 1),
                layer TEXT NOT NULL,
                published_at TEXT NOT NULL,
                rolled_back_from INTEGER,
                PRIMARY KEY (app_key, version)
            ) WITHOUT ROWID;
            CREATE TRIGGER IF NOT EXISTS look_versions_append_only_update BEFORE UPDATE ON look_versions
                BEGIN SELECT RAISE(ABORT, 'look_versions is append-only'); END;
            CREATE TRIGGER IF NOT EXISTS look_versions_append_only_delete BEFORE DELETE ON look_versions
                BEGIN SELECT RAISE(ABORT, 'look_versions is append-only'); END;
            \(Self.draftSchema)
            CREATE TABLE IF NOT EXISTS feed_state(
                id INTEGER PRIMARY KEY CHECK (id = 1),
                last_seq INTEGER NOT NULL,
                compacted_through INTEGER NOT NULL
            );
            INSERT OR IGNORE INTO feed_state(id, last_seq, compacted_through) VALUES (1, 0, 0);
            CREATE TABLE IF NOT EXISTS change_events(
                seq INTEGER PRIMARY KEY,
                app_key TEXT NOT NULL,
                version INTEGER NOT NULL,
                kind TEXT NOT NULL,
                etag TEXT NOT NULL,
                at TEXT NOT NULL,
                at_ms INTEGER NOT NULL
            );
            CREATE TABLE IF NOT EXISTS webhook_receivers(
                receiver TEXT PRIMARY KEY,
                url TEXT NOT NULL,
                added_at TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS webhook_deliveries(
                receiver TEXT NOT NULL,
                seq INTEGER NOT NULL,
                app_key TEXT NOT NULL,
                body TEXT NOT NULL,
                state TEXT NOT NULL,
                attempts INTEGER NOT NULL,
                created_ms INTEGER NOT NULL,
                next_ms INTEGER NOT NULL,
                lease_owner TEXT,
                lease_until INTEGER,
                last_error TEXT,
                done_ms INTEGER,
                PRIMARY KEY (receiver, seq)
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS webhook_deliveries_app ON webhook_deliveries(receiver, state, app_key, seq);
            PRAGMA user_version=\(Self.schemaVersion);
            """)
        let read = try SQLiteConnection(path: path, readOnly: true)
        sqlite3_busy_timeout(read.handle, busyTimeoutMilliseconds)
        writer = LockedValue(write)
        reader = LockedValue(read)
    }

    deinit {
        writer.withLock { $0.close() }
        reader.withLock { $0.close() }
        Glibc.close(lockDescriptor)
    }

    func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try use(reader, body)
    }

    func write<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try use(writer, body)
    }

    private func use<T: Sendable>(_ connection: LockedValue<SQLiteConnection>, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try statistics.timed {
            try connection.withLock { connection in
                statistics.connectionsInUse.add(1, ordering: .relaxed)
                defer { statistics.connectionsInUse.subtract(1, ordering: .relaxed) }
                return try body(connection)
            }
        }
    }

    /// Closes both connections (the last close checkpoints the WAL into the database file) and frees the directory's
    /// lock, so another store may open it at once (even while this object lives on). Call once no request can reach
    /// the store any more; later calls fail with StoreError (SQLITE_MISUSE).
    func close() {
        reader.withLock { $0.close() }
        writer.withLock { $0.close() }
        flock(lockDescriptor, LOCK_UN)
    }

    /// Checks that the database answers a query (readiness). Throws StoreError.
    func ping() throws {
        try read { connection in
            try connection.query("SELECT count(*) FROM look_versions WHERE 0")
        }
    }

    func versionCount() throws -> Int {
        try read { connection in
            var count = 0
            try connection.query("SELECT count(*) FROM look_versions") { row in count = Int(row.integer(0)) }
            return count
        }
    }

    func appKeys(after: String?, limit: Int) throws -> [String] {
        try read { connection in
            var keys: [String] = []
            try connection.query("SELECT app_key FROM apps WHERE app_key > ? ORDER BY app_key LIMIT ?",
                                 [.text(after ?? ""), .integer(Int64(limit))]) { row in keys.append(row.text(0)) }
            return keys
        }
    }

    func currentVersions(appKeys: [String]) throws -> [String: Int] {
        try read { connection in
            var versions: [String: Int] = [:]
            for key in appKeys {
                try connection.query("SELECT max(version) FROM look_versions WHERE app_key = ?", [.text(key)]) { row in
                    if !row.isNull(0) { versions[key] = Int(row.integer(0)) }
                }
            }
            return versions
        }
    }

    /// One process holds the directory (the lock file), so no other writer can change it: nothing to watch.
    func watchChanges(_ handler: @escaping @Sendable (StoreChange) -> Void) {}

    func importVersions(appKey: String, _ versions: [StoredVersion]) throws -> Int {
        try transaction { connection in
            var added = 0
            for stored in versions {
                var present: StoredVersion?
                try connection.query("SELECT version, layer, published_at, rolled_back_from FROM look_versions WHERE app_key = ? AND version = ?",
                                     [.text(appKey), .integer(Int64(stored.version))]) { row in present = Self.decode(row) }
                if let present {
                    guard present == stored else { throw StoreError.differs(appKey: appKey, version: stored.version) }
                    continue
                }
                try insert(appKey: appKey, stored, connection)
                added += 1
            }
            return added
        }
    }

    /// The app's current (highest) version, or nil when the app was never published.
    func current(appKey: String) throws -> StoredVersion? {
        try read { connection in
            try Self.current(appKey: appKey, connection)
        }
    }

    /// One version of an app, or nil.
    func version(appKey: String, _ version: Int) throws -> StoredVersion? {
        try read { connection in
            var found: StoredVersion?
            try connection.query("SELECT version, layer, published_at, rolled_back_from FROM look_versions WHERE app_key = ? AND version = ?",
                                 [.text(appKey), .integer(Int64(version))]) { row in found = Self.decode(row) }
            return found
        }
    }

    /// The app's versions, newest first, at most `limit`.
    func history(appKey: String, limit: Int) throws -> [StoredVersion] {
        try read { connection in
            var versions: [StoredVersion] = []
            try connection.query("SELECT version, layer, published_at, rolled_back_from FROM look_versions WHERE app_key = ? ORDER BY version DESC LIMIT ?",
                                 [.text(appKey), .integer(Int64(limit))]) { row in versions.append(Self.decode(row)) }
            return versions
        }
    }

    /// The number of apps with at least one version.
    func appCount() throws -> Int {
        try read { connection in
            var count = 0
            try connection.query("SELECT count(*) FROM apps") { row in count = Int(row.integer(0)) }
            return count
        }
    }

    /// Appends a version when `expected` holds, in one IMMEDIATE transaction, and returns it after
    /// COMMIT (durable, see the type's note). Throws PublishConflict when `expected` does not hold
    /// (nothing is written), StoreError when SQLite fails (nothing is written).
    func publish(appKey: String, layer: String, expected: PublishExpectation?, rolledBackFrom: Int?, kind: ChangeKind) throws -> StoredVersion {
        try transaction { connection in
            let current = try Self.current(appKey: appKey, connection)?.version
            let stored = try StoredVersion.next(after: current, expected: expected, layer: layer, rolledBackFrom: rolledBackFrom)
            try insert(appKey: appKey, stored, connection)
            _ = try FeedSQL.append(appKey: appKey, stored: stored, kind: kind, connection)
            return stored
        }
    }

    /// Runs `body` in one IMMEDIATE transaction on the writer and returns after COMMIT; ROLLBACK when it throws.
    func transaction<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try write { connection in
            try connection.execute("BEGIN IMMEDIATE")
            do {
                let value = try body(connection)
                try connection.execute("COMMIT")
                return value
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    func changes(after: Int64, limit: Int) throws -> ChangePage {
        try read { connection in
            try connection.execute("BEGIN")
            defer { try? connection.execute("COMMIT") }
            return try FeedSQL.changes(after: after, limit: limit, connection)
        }
    }

    func compactChanges(before cutoffMilliseconds: Int64) throws -> Int {
        try transaction { try FeedSQL.compact(before: cutoffMilliseconds, $0) }
    }

    func registerReceivers(_ receivers: [(id: String, url: String)]) throws {
        try transaction { try FeedSQL.register(receivers, $0) }
    }

    func claimDeliveries(receiver: String, owner: String, nowMilliseconds: Int64, leaseMilliseconds: Int64, limit: Int) throws -> [WebhookDelivery] {
        try transaction { connection in
            try FeedSQL.due(receiver: receiver, now: nowMilliseconds, limit: limit, connection).filter {
                try FeedSQL.lease($0, owner: owner, now: nowMilliseconds, until: nowMilliseconds + leaseMilliseconds, connection)
            }
        }
    }

    func finishDelivery(_ delivery: WebhookDelivery, owner: String, outcome: DeliveryOutcome, nowMilliseconds: Int64) throws -> Bool {
        try transaction { try FeedSQL.finish(delivery, owner: owner, outcome: outcome, now: nowMilliseconds, $0) }
    }

    func deliveries(receiver: String) throws -> [DeliveryRecord] {
        try read { try FeedSQL.deliveries(receiver: receiver, $0) }
    }

    func insert(appKey: String, _ stored: StoredVersion, _ connection: SQLiteConnection) throws {
        try connection.query("INSERT OR IGNORE INTO apps(app_key, created_at) VALUES (?, ?)", [.text(appKey), .text(stored.publishedAt)])
        try connection.query("INSERT INTO look_versions(app_key, version, layer, published_at, rolled_back_from) VALUES (?, ?, ?, ?, ?)",
                             [.text(appKey), .integer(Int64(stored.version)), .text(stored.layer), .text(stored.publishedAt),
                              stored.rolledBackFrom.map { .integer(Int64($0)) } ?? .null])
    }

    static func current(appKey: String, _ connection: SQLiteConnection) throws -> StoredVersion? {
        var found: StoredVersion?
        try connection.query("SELECT version, layer, published_at, rolled_back_from FROM look_versions WHERE app_key = ? ORDER BY version DESC LIMIT 1",
                             [.text(appKey)]) { row in found = decode(row) }
        return found
    }

    private static func decode(_ row: SQLiteConnection.Row) -> StoredVersion {
        StoredVersion(version: Int(row.integer(0)), layer: row.text(1), publishedAt: row.text(2),
                      rolledBackFrom: row.isNull(3) ? nil : Int(row.integer(3)))
    }
}
