import Foundation
import Strings

/// What `lookd serve` starts with. Every field has the CLI flag's default.
public struct DaemonConfiguration: Sendable {
    /// A numeric IPv4 or IPv6 address to listen on.
    public var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one (read the bound port from `Daemon.start()`).
    public var port: UInt16 = 8080
    /// Where the looks are stored: `sqlite:DIR` or `postgresql://…` (`StoreLocation.parse`).
    public var store = "sqlite:./.lookd"
    /// The SQLite store's directory: a shorthand that sets `store` to `sqlite:DIR` (nil when `store` is not SQLite).
    public var dataDirectory: String? {
        get { if case .sqlite(let directory)? = try? StoreLocation.parse(store) { directory } else { nil } }
        set { if let newValue { store = "sqlite:" + newValue } }
    }
    /// SQLite: how long a store write waits for a lock held by another connection; PostgreSQL: every
    /// statement's timeout. Milliseconds; past it the request answers 503.
    public var storeBusyTimeoutMilliseconds: Int32 = 5000
    /// PostgreSQL: most pooled connections (1–1000), beside the listener's.
    public var storeConnections = 8
    /// A file holding the admin bearer token; nil reads `LOOKD_ADMIN_TOKEN` from `environment`.
    public var adminTokenFile: String?
    /// The environment the token may come from.
    public var environment: [String: String] = [:]
    /// `-` (standard output), `off`, or a file path: one JSON line per request.
    public var accessLog = "-"
    /// Request, connection and cache limits.
    public var limits = Limits()
    /// A file holding the change feed's bearer token (`--feed-token-file`); nil: the feed answers 403.
    public var feedTokenFile: String?
    /// Change events older than this many days are compacted (1–3650).
    public var feedRetentionDays = 7
    /// Webhook receivers' URLs (`--webhook`, repeatable): every change event is POSTed, signed, to each.
    public var webhooks: [String] = []
    /// The webhook signing secret's file (`--webhook-secret-file`); required with `webhooks`.
    public var webhookSecretFile: String?
    /// One webhook attempt's deadline, seconds (1–120).
    public var webhookTimeoutSeconds = 10
    /// How long a replica holds a delivery it attempts, seconds (more than the timeout).
    public var webhookLeaseSeconds = 30
    /// Send `Surrogate-Key` and `Cache-Tag` (the app key) on the SDK fetch's answers, for a CDN in front that purges by
    /// key (default); `--no-purge-keys` sets it false and they are not sent.
    public var purgeKeys = true
    /// Prefill the engine's response cache on a publish here: after its answer, the new version's every language is
    /// built and put on the publish's worker, so that its first fetches are the engine's (default); `--no-prefill` sets
    /// it false and each version's first fetch fills them instead. At start, likewise, every published app's current
    /// version is prefilled on a background thread while the cache has room (`StartupPrefill`), so that a restart's
    /// first fetches are the engine's too; `--no-prefill` turns that off as well.
    public var prefill = true

    public init() {}
}

/// The daemon: the store, the services, the router and the HTTP server, composed and owned here. `start()`
/// listens; `stop(grace:)` drains and closes everything. Thread-safe.
public final class Daemon: Sendable {
    private let services: AppServices
    private let server: Server
    private let configuration: DaemonConfiguration
    /// nil with `--no-prefill`.
    private let startupPrefill: StartupPrefill?

    /// Opens the store and builds the services. Throws `ConfigurationError` when a setting cannot be used
    /// (the store's location or database, the token file, the access log); its message never shows a password.
    public init(configuration: DaemonConfiguration, localizer: Localizer) throws {
        let auth = try AdminAuth.load(file: configuration.adminTokenFile, environment: configuration.environment)
        let feed = FeedConfiguration(auth: try FeedAuth.load(file: configuration.feedTokenFile), retentionDays: configuration.feedRetentionDays)
        var webhooks = try WebhookConfiguration.load(urls: configuration.webhooks, secretFile: configuration.webhookSecretFile)
        webhooks?.timeoutSeconds = Double(configuration.webhookTimeoutSeconds)
        webhooks?.leaseMilliseconds = Int64(max(configuration.webhookLeaseSeconds, configuration.webhookTimeoutSeconds + 1)) * 1000
        let accessLog = try AccessLog(destination: configuration.accessLog)
        let metrics = Metrics()
        var options = StoreLocation.Options()
        options.timeoutMilliseconds = Int(configuration.storeBusyTimeoutMilliseconds)
        options.connections = configuration.storeConnections
        let store = try StoreLocation.parse(configuration.store).open(options, statistics: metrics.store)
        // Label 0: the look fetch, the only route that fills it (Routes/Apps.swift).
        let engineCache = EngineResponseCache(capacityBytes: configuration.limits.responseCacheBytes, labels: ["/v1/apps/{appKey}/look"],
                                              bounds: Metrics.buckets)
        metrics.fold(engineCache)
        let responseCache = LookResponseCache(engine: engineCache, localizer: localizer)
        services = AppServices(store: store, metrics: metrics, limits: configuration.limits, auth: auth, localizer: localizer,
                               derived: responseCache, feed: feed, webhooks: webhooks)
        let fetchOptions = LookResponse.Options(purgeKeys: configuration.purgeKeys)
        server = Server(router: Routes.router(services, responseCache: responseCache, prefill: configuration.prefill), limits: configuration.limits, metrics: metrics,
                        accessLog: accessLog, responseCache: engineCache, fetchOptions: fetchOptions)
        startupPrefill = configuration.prefill ? StartupPrefill(cache: responseCache, services: services, options: fetchOptions) : nil
        self.configuration = configuration
    }

    /// The store's location for logs, password redacted.
    public var storeLocation: String { services.storeLocation }

    /// Whether admin routes are served (a token is configured); without one they answer 403.
    public var adminEnabled: Bool { services.auth.isConfigured }

    /// Starts listening and returns the bound port; then, unless `--no-prefill`, starts prefilling the response cache
    /// with every published app in the background (`StartupPrefill`; it logs a line when done). Throws
    /// `ConfigurationError` when the address is not numeric or cannot be bound.
    public func start() throws -> UInt16 {
        do {
            try services.startBackground()
        } catch let error as StoreUnavailableError {
            throw ConfigurationError("cannot register the webhook receivers in the store: \(error.cause)")
        }
        let port = try server.start(host: configuration.host, port: configuration.port)
        startupPrefill?.start()
        return port
    }

    /// Whether the change feed is served (a feed token is configured); without one it answers 403.
    public var feedEnabled: Bool { services.changes.auth.isConfigured }

    /// Stops accepting at once, lets in-flight requests finish for up to `grace` seconds, closes every
    /// connection and then the store. Returns how many requests were still in flight when the grace ran out.
    @discardableResult
    public func stop(grace: Double) -> Int {
        // Waiting long-polls are answered first: a parked request must be answered before the engine stops.
        services.stopBackground()
        startupPrefill?.stop()
        let unfinished = server.stop(grace: grace)
        services.closeStore()
        return unfinished
    }
}
