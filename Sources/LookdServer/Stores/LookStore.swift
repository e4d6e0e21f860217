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

/// What a publish expects the app's current version to be (the caller's precondition).
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

/// A publish whose COMMIT was sent but whose outcome could not be learnt: the connection died during COMMIT and
/// the version could not be read back before the deadline. The version may or may not be stored; the client must
/// read the app's current version before trying again. `cause` is the store's own description (for the log).
struct PublishOutcomeUnknown: Error {
    var cause: String
}

extension LookStore {
    /// `publish(…, kind:)` with the kind its arguments imply: `rollback` when `rolledBackFrom` is set, else `publish`.
    func publish(appKey: String, layer: String, expected: PublishExpectation?, rolledBackFrom: Int?) throws -> StoredVersion {
        try publish(appKey: appKey, layer: layer, expected: expected, rolledBackFrom: rolledBackFrom, kind: .of(rolledBackFrom: rolledBackFrom))
    }
}

/// What the store's change feed reports to the caches of this process.
enum StoreChange: Sendable, Equatable {
    /// The app published `version` (here or on another replica): its cached responses of older versions are stale.
    /// `version` nil: not known (another kind of change, or a notification from a lookd that does not send it):
    /// every cached response of the app is stale.
    case app(String, version: Int?)
    /// The feed was lost: until `.all`, notifications may be missed, so every cached look may be stale (keep
    /// serving them, the store may well be unreachable too).
    case lost
    /// The feed is listening again (also its first connect): notifications sent while it was away were missed,
    /// so every cached app must be revalidated against the store (`currentVersions`). Changes from now on are
    /// reported as they happen.
    case all
}

/// Where looks are kept: append-only versions per app. Both back ends (`SQLiteLookStore`,
/// `PostgresLookStore`) keep the same semantics; services and routes know only this protocol, and
/// `StoreLocation.open` is the one place that picks a back end.
///
/// Errors: every back-end failure (database unreachable, timeout, pool exhausted) is thrown as
/// `StoreError` (the services translate it: `ServiceStore`). Thread-safety: every method may be
/// called from any thread at any time; `close()` once, after the last request.
protocol LookStore: DraftStore {
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

    /// The current version of each of `appKeys` (any number) that has one; apps never published are absent.
    /// Read in batches of a few hundred keys. Throws StoreError.
    func currentVersions(appKeys: [String]) throws -> [String: Int]

    /// Appends a version when `expected` holds (nil: unconditionally), checking the precondition inside
    /// the publishing transaction, and returns it after COMMIT (durable). In the same transaction it appends the
    /// version's `ChangeEvent` of `kind` to the change feed, a `WebhookDelivery` of it for every registered
    /// receiver, and tells every replica's change watcher. This is the one way to write a version: every caller
    /// (publish, rollback, a draft's promote) gets its event. Throws PublishConflict when `expected` does not hold
    /// (nothing is written), StoreError when the database fails and nothing was stored, PublishOutcomeUnknown when the
    /// connection died during COMMIT and the version could not be read back (it may be stored). A COMMIT whose
    /// connection died is never reported as StoreError unless the version was read back and found absent.
    func publish(appKey: String, layer: String, expected: PublishExpectation?, rolledBackFrom: Int?, kind: ChangeKind) throws -> StoredVersion

    /// The change feed after `after` (0: from the start), ascending, at most `limit` (1 or more) events, with the
    /// feed's latest and compacted positions. Throws StoreError.
    func changes(after: Int64, limit: Int) throws -> ChangePage

    /// Deletes change events published before `cutoffMilliseconds` (Unix ms) and finished webhook deliveries
    /// older than it, never the latest event; records the highest `seq` deleted (`ChangePage.compactedThrough`).
    /// Returns how many events were deleted. Throws StoreError.
    func compactChanges(before cutoffMilliseconds: Int64) throws -> Int

    /// Registers webhook receivers (id → URL); idempotent. From the next publish on, each gets a delivery of
    /// every event. Throws StoreError.
    func registerReceivers(_ receivers: [(id: String, url: String)]) throws

    /// Leases up to `limit` due deliveries of `receiver` to `owner` until `nowMilliseconds + leaseMilliseconds`:
    /// pending ones whose next attempt is due, whose lease is free or expired (its holder died), and that are the
    /// oldest pending delivery of their app for this receiver (so an app's events go out in order, one at a time).
    /// At most `limit` of the receiver's deliveries are leased at once over all replicas. Throws StoreError.
    func claimDeliveries(receiver: String, owner: String, nowMilliseconds: Int64, leaseMilliseconds: Int64, limit: Int) throws -> [WebhookDelivery]

    /// Records an attempt's outcome for a delivery `owner` leased. Ignored (returns false) when the lease was
    /// taken over meanwhile. Throws StoreError.
    @discardableResult
    func finishDelivery(_ delivery: WebhookDelivery, owner: String, outcome: DeliveryOutcome, nowMilliseconds: Int64) throws -> Bool

    /// Every delivery of `receiver`, ascending by `seq` (tests and diagnostics). Throws StoreError.
    func deliveries(receiver: String) throws -> [DeliveryRecord]

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
