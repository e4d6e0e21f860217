import Strings

/// The services the route handlers share: built once by `lookd serve`, immutable afterwards.
final class AppServices: Sendable {
    let store: any LookStore
    let metrics: Metrics
    let limits: Limits
    let auth: AdminAuth
    let looks: LookService
    let strings: StringsService
    let lint: LintService

    /// `fetchTable`: the engine's table of cached fetches, kept coherent by the look cache (nil: none).
    init(store: any LookStore, metrics: Metrics, limits: Limits, auth: AdminAuth, localizer: Localizer, fetchTable: EngineFetchTable? = nil) {
        self.store = store
        self.strings = StringsService(localizer: localizer)
        self.looks = LookService(store: store, metrics: metrics, limits: limits, localizer: localizer, fetchTable: fetchTable)
        self.lint = LintService(maxCatalogs: limits.maxLintLocales)
        self.metrics = metrics
        self.limits = limits
        self.auth = auth
    }

    /// Runs a store operation; a StoreError is counted in `lookd_store_errors_total`, logged to stderr and
    /// rethrown as `StoreUnavailableError` (503 `store_unavailable` with `Retry-After: 1` over HTTP), never a crash.
    func guardStore<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            metrics.storeErrors.add(1, ordering: .relaxed)
            ServerLog.error("lookd: store: \(error)")
            throw StoreUnavailableError(cause: "\(error)")
        }
    }
}
