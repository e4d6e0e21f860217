import Strings

/// The services the route handlers share: built once by `lookd serve`, immutable afterwards.
final class AppServices: Sendable {
    /// Reached only through the services (and `ready()`, `storeLocation`, `closeStore()`): routes never see the store,
    /// so they never see its errors either (`ServiceStore`).
    private let store: ServiceStore
    let metrics: Metrics
    let limits: Limits
    let auth: AdminAuth
    let looks: LookService
    let strings: StringsService
    let lint: LintService
    let changes: ChangeFeedService
    /// The webhook deliverer, or nil when no `--webhook` is configured.
    let webhooks: WebhookDeliverer?

    /// `derived`: what the HTTP edge derives from the fetch responses and keeps (the engine's response cache), kept
    /// coherent by the look cache (nil: none). `feed`: the
    /// change feed's token and retention; `webhooks`: the receivers (none: no deliverer).
    init(store: any LookStore, metrics: Metrics, limits: Limits, auth: AdminAuth, localizer: Localizer, derived: (any DerivedLookCache)? = nil,
         feed: FeedConfiguration = FeedConfiguration(), webhooks: WebhookConfiguration? = nil) {
        self.store = ServiceStore(store, metrics: metrics)
        self.strings = StringsService(localizer: localizer)
        let changes = ChangeFeedService(store: store, metrics: metrics, auth: feed.auth, retentionDays: feed.retentionDays)
        let deliverer = webhooks.map { WebhookDeliverer(store: store, configuration: $0) }
        self.changes = changes
        self.webhooks = deliverer
        self.looks = LookService(store: store, metrics: metrics, limits: limits, localizer: localizer, derived: derived) {
            changes.notify()
            deliverer?.notify()
        }
        self.lint = LintService(maxCatalogs: limits.maxLintLocales)
        self.metrics = metrics
        self.limits = limits
        self.auth = auth
    }

    /// Starts the feed's and the deliverer's threads (the daemon, before serving). Throws `StoreUnavailableError` when
    /// the webhook receivers cannot be registered in the store.
    func startBackground() throws {
        changes.start()
        try store.translating { try webhooks?.start() }
    }

    /// Answers the feed's waiting long-polls and stops the background threads (the daemon, when the drain starts).
    func stopBackground() {
        changes.close()
        webhooks?.stop()
    }

    /// Readiness: the store answers a query. Throws `StoreUnavailableError`.
    func ready() throws {
        try store.call { try $0.ping() }
    }

    /// The store's location for logs, password redacted.
    var storeLocation: String { store.displayLocation }

    /// Closes the store's connections (after the last request).
    func closeStore() { store.close() }
}
