/// A service's only way to its store, and the one place where the store's failures become the services' domain errors:
/// - `StoreError` (the database failed, timed out, or its pool is exhausted) is counted in `lookd_store_errors_total`,
///   logged to stderr with its cause, and thrown as `StoreUnavailableError`;
/// - `PublishOutcomeUnknown` (a COMMIT whose outcome could not be read back) is counted, logged, and thrown as
///   `PublishOutcomeUnknownError`;
/// - every other error (the store's conflicts and missing rows, which each service names in its own terms) passes
///   through unchanged.
/// Services hold no other reference to the store, so no caller of a service ever meets a `StoreError`, and no route
/// has to remember anything for a failing store to be answered as the domain error's status (`ErrorResponses.swift`).
/// Thread-safe: it holds the store (thread-safe) and atomic counters only.
struct ServiceStore: Sendable {
    private let store: any LookStore
    private let metrics: Metrics

    init(_ store: any LookStore, metrics: Metrics) {
        self.store = store
        self.metrics = metrics
    }

    /// The store's location for logs, password redacted.
    var displayLocation: String { store.displayLocation }

    /// Closes the store's connections (after the last request; later calls fail as `StoreUnavailableError`).
    func close() { store.close() }

    /// Runs `body` on the store, its store failures translated as above.
    func call<T>(_ body: (any LookStore) throws -> T) throws -> T {
        try translating { try body(store) }
    }

    /// Runs `body` (which reaches the store some other way, e.g. a background service's set-up), its store failures
    /// translated as above.
    func translating<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            metrics.storeErrors.add(1, ordering: .relaxed)
            ServerLog.error("lookd: store: \(error)")
            throw StoreUnavailableError(cause: "\(error)")
        } catch let unknown as PublishOutcomeUnknown {
            metrics.storeErrors.add(1, ordering: .relaxed)
            ServerLog.error("lookd: store: publish outcome unknown: \(unknown.cause)")
            throw PublishOutcomeUnknownError(cause: unknown.cause)
        }
    }
}
