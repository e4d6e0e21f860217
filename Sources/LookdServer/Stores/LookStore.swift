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

extension StoredVersion {
    /// The version a publish appends after `current` (nil: the app has none), stamped now. Throws
    /// PublishConflict when `expected` does not hold.
    static func next(after current: Int?, expected: PublishExpectation?, layer: String, rolledBackFrom: Int?) throws -> StoredVersion {
        switch expected {
        case .newApp?:
            if current != nil { throw PublishConflict(current: current) }
        case .version(let version)?:
            if current != version { throw PublishConflict(current: current) }
        case nil:
            break
        }
        return StoredVersion(version: (current ?? 0) + 1, layer: layer, publishedAt: utcTimestamp(), rolledBackFrom: rolledBackFrom)
    }
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

/// What the store's change feed reports to the caches of this process.
enum StoreChange: Sendable, Equatable {
    /// The app published a version (here or on another replica): its cached responses are stale.
    case app(String)
    /// Notifications may have been missed (the feed was lost and is back): every cached look is stale.
    case all
}

/// Where looks are kept: append-only versions per app. Both back ends (`SQLiteLookStore`,
/// `PostgresLookStore`) keep the same semantics; services and routes know only this protocol, and
/// `StoreLocation.open` is the one place that picks a back end.
///
/// Errors: every back-end failure (database unreachable, timeout, pool exhausted) is thrown as
/// `StoreError`, which the HTTP edge answers 503 with `Retry-After`. Thread-safety: every method may be
/// called from any thread at any time; `close()` once, after the last request.
protocol LookStore: AnyObject, Sendable {
    /// The store's location for logs, with any password redacted (`StoreLocation.redacted`).
    var displayLocation: String { get }

    /// Checks that the database answers a query (readiness). Throws StoreError.
    func ping() throws

    /// The app's current (highest) version, or nil when the app was never published. Throws StoreError.
    func current(appKey: String) throws -> StoredVersion?

    /// One version of an app, or nil. Throws StoreError.
    func version(appKey: String, _ version: Int) throws -> StoredVersion?

    /// The app's versions, newest first, at most `limit` (1 or more). Throws StoreError.
    func history(appKey: String, limit: Int) throws -> [StoredVersion]

    /// The number of apps with at least one version. Throws StoreError.
    func appCount() throws -> Int

    /// The number of stored versions over all apps. Throws StoreError.
    func versionCount() throws -> Int

    /// App keys in ascending order, strictly after `after` (nil: from the first), at most `limit`. Throws StoreError.
    func appKeys(after: String?, limit: Int) throws -> [String]

    /// Appends a version when `expected` holds (nil: unconditionally), checking the precondition inside
    /// the publishing transaction, and returns it after COMMIT (durable). Tells every replica's change
    /// feed in the same transaction. Throws PublishConflict when `expected` does not hold (nothing is
    /// written), StoreError when the database fails (nothing acknowledged).
    func publish(appKey: String, layer: String, expected: PublishExpectation?, rolledBackFrom: Int?) throws -> StoredVersion

    /// Stores `versions` of one app exactly as given (numbers and timestamps kept), skipping those already
    /// present, in one transaction; returns how many were new. For `lookd store copy`. Throws StoreError,
    /// or StoreError when a present version differs from the given one (the two stores disagree).
    func importVersions(appKey: String, _ versions: [StoredVersion]) throws -> Int

    /// Calls `handler` (on a store thread) for each change this store learns of from other processes. A store
    /// without other writers (SQLite: one process holds the directory) never calls it. Set once, before serving.
    func watchChanges(_ handler: @escaping @Sendable (StoreChange) -> Void)

    /// Closes every connection. Later calls throw StoreError.
    func close()
}
