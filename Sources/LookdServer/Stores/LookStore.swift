import CSQLite
import Foundation
import Synchronization

/// One published version of an app's dashboard layer. Versions start at 1 and only grow.
struct StoredVersion: Sendable, Equatable {
    var version: Int
    /// The dashboard layer as canonical JSON text (sorted keys).
    var layer: String
    /// UTC, `2026-11-30T10:16:43.123Z`.
    var publishedAt: String
    /// For a rollback: the version whose layer was republished.
    var rolledBackFrom: Int?
}

/// What a publish expects the app's current version to be (the HTTP precondition).
enum PublishExpectation: Sendable {
    /// The app has never been published (`If-None-Match: *`).
    case newApp
    /// The current version is exactly this one (`If-Match`).
    case version(Int)
}

/// A publish whose expectation did not hold. `current` is the app's current version (nil: none).
struct PublishConflict: Error {
    var current: Int?
}

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
/// a copy of the old layer as a new version.
///
/// Concurrency: one writer connection and one reader connection, each behind a Mutex (WAL lets the
/// reader run while the writer commits). `busy_timeout` is 5 s by default (`--store-busy-timeout`). Every SQLite failure is thrown as
/// StoreError, which the HTTP layer answers with 503 and `Retry-After`.
final class LookStore: Sendable {
    static let schemaVersion = 1
    private let writer: Mutex<SQLiteConnection>
    private let reader: Mutex<SQLiteConnection>
    private let lockDescriptor: Int32
    let path: String

    /// Opens or creates the store in `directory` (created if missing). `busyTimeoutMilliseconds`: how
    /// long a statement waits for a lock held by another connection before failing with SQLITE_BUSY
    /// (then answered 503). Throws a ConfigurationError when the directory cannot be created or another lookd
    /// holds it, StoreError when SQLite fails.
    init(directory: String, busyTimeoutMilliseconds: Int32 = 5000) throws {
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
            PRAGMA user_version=\(Self.schemaVersion);
            """)
        let read = try SQLiteConnection(path: path, readOnly: true)
        sqlite3_busy_timeout(read.handle, busyTimeoutMilliseconds)
        writer = Mutex(write)
        reader = Mutex(read)
    }

    deinit {
        writer.withLock { $0.close() }
        reader.withLock { $0.close() }
        Glibc.close(lockDescriptor)
    }

    /// Closes both connections (the last close checkpoints the WAL into the database file). Call once
    /// no request can reach the store any more; later calls fail with StoreError (SQLITE_MISUSE).
    func close() {
        reader.withLock { $0.close() }
        writer.withLock { $0.close() }
    }

    /// Checks that the database answers a query (readiness). Throws StoreError.
    func ping() throws {
        try reader.withLock { connection in
            try connection.query("SELECT count(*) FROM look_versions WHERE 0")
        }
    }

    /// The app's current (highest) version, or nil when the app was never published.
    func current(appKey: String) throws -> StoredVersion? {
        try reader.withLock { connection in
            try Self.current(appKey: appKey, connection)
        }
    }

    /// One version of an app, or nil.
    func version(appKey: String, _ version: Int) throws -> StoredVersion? {
        try reader.withLock { connection in
            var found: StoredVersion?
            try connection.query("SELECT version, layer, published_at, rolled_back_from FROM look_versions WHERE app_key = ? AND version = ?",
                                 [.text(appKey), .integer(Int64(version))]) { row in found = Self.decode(row) }
            return found
        }
    }

    /// The app's versions, newest first, at most `limit`.
    func history(appKey: String, limit: Int) throws -> [StoredVersion] {
        try reader.withLock { connection in
            var versions: [StoredVersion] = []
            try connection.query("SELECT version, layer, published_at, rolled_back_from FROM look_versions WHERE app_key = ? ORDER BY version DESC LIMIT ?",
                                 [.text(appKey), .integer(Int64(limit))]) { row in versions.append(Self.decode(row)) }
            return versions
        }
    }

    /// The number of apps with at least one version.
    func appCount() throws -> Int {
        try reader.withLock { connection in
            var count = 0
            try connection.query("SELECT count(*) FROM apps") { row in count = Int(row.integer(0)) }
            return count
        }
    }

    /// Appends a version when `expected` holds, in one IMMEDIATE transaction, and returns it after
    /// COMMIT (durable, see the type's note). Throws PublishConflict when `expected` does not hold
    /// (nothing is written), StoreError when SQLite fails (nothing is written).
    func publish(appKey: String, layer: String, expected: PublishExpectation?, rolledBackFrom: Int? = nil) throws -> StoredVersion {
        try writer.withLock { connection in
            try connection.execute("BEGIN IMMEDIATE")
            do {
                let current = try Self.current(appKey: appKey, connection)?.version
                switch expected {
                case .newApp?:
                    if current != nil { throw PublishConflict(current: current) }
                case .version(let version)?:
                    if current != version { throw PublishConflict(current: current) }
                case nil:
                    break
                }
                let stored = StoredVersion(version: (current ?? 0) + 1, layer: layer, publishedAt: utcTimestamp(), rolledBackFrom: rolledBackFrom)
                try connection.query("INSERT OR IGNORE INTO apps(app_key, created_at) VALUES (?, ?)", [.text(appKey), .text(stored.publishedAt)])
                try connection.query("INSERT INTO look_versions(app_key, version, layer, published_at, rolled_back_from) VALUES (?, ?, ?, ?, ?)",
                                     [.text(appKey), .integer(Int64(stored.version)), .text(layer), .text(stored.publishedAt),
                                      rolledBackFrom.map { .integer(Int64($0)) } ?? .null])
                try connection.execute("COMMIT")
                return stored
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    private static func current(appKey: String, _ connection: SQLiteConnection) throws -> StoredVersion? {
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
