import Foundation
import Strings

/// What `lookd serve` starts with. Every field has the CLI flag's default.
public struct DaemonConfiguration: Sendable {
    /// A numeric IPv4 or IPv6 address to listen on.
    public var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one (read the bound port from `Daemon.start()`).
    public var port: UInt16 = 8080
    /// The SQLite store's directory (created if missing).
    public var dataDirectory = "./.lookd"
    /// How long a store write waits for a lock held by another connection before answering 503, in milliseconds.
    public var storeBusyTimeoutMilliseconds: Int32 = 5000
    /// A file holding the admin bearer token; nil reads `LOOKD_ADMIN_TOKEN` from `environment`.
    public var adminTokenFile: String?
    /// The environment the token may come from.
    public var environment: [String: String] = [:]
    /// `-` (standard output), `off`, or a file path: one JSON line per request.
    public var accessLog = "-"
    /// Request, connection and cache limits.
    public var limits = Limits()

    public init() {}
}

/// The daemon: the store, the services, the router and the HTTP server, composed and owned here. `start()`
/// listens; `stop(grace:)` drains and closes everything. Thread-safe.
public final class Daemon: Sendable {
    private let services: AppServices
    private let server: Server
    private let configuration: DaemonConfiguration

    /// Opens the store and builds the services. Throws `ConfigurationError` when a setting cannot be used
    /// (the store's directory, the token file, the access log).
    public init(configuration: DaemonConfiguration, localizer: Localizer) throws {
        let auth = try AdminAuth.load(file: configuration.adminTokenFile, environment: configuration.environment)
        let accessLog = try AccessLog(destination: configuration.accessLog)
        let store: LookStore
        do {
            store = try LookStore(directory: configuration.dataDirectory, busyTimeoutMilliseconds: configuration.storeBusyTimeoutMilliseconds)
        } catch let error as StoreError {
            throw ConfigurationError("cannot open the store in \(configuration.dataDirectory): \(error)")
        }
        let metrics = Metrics()
        services = AppServices(store: store, metrics: metrics, limits: configuration.limits, auth: auth, localizer: localizer)
        server = Server(router: Routes.router(services), limits: configuration.limits, metrics: metrics, accessLog: accessLog)
        self.configuration = configuration
    }

    /// Whether admin routes are served (a token is configured); without one they answer 403.
    public var adminEnabled: Bool { services.auth.isConfigured }

    /// Starts listening and returns the bound port. Throws `ConfigurationError` when the address is not numeric
    /// or cannot be bound.
    public func start() throws -> UInt16 {
        try server.start(host: configuration.host, port: configuration.port)
    }

    /// Stops accepting at once, lets in-flight requests finish for up to `grace` seconds, closes every
    /// connection and then the store. Returns how many requests were still in flight when the grace ran out.
    @discardableResult
    public func stop(grace: Double) -> Int {
        let unfinished = server.stop(grace: grace)
        services.store.close()
        return unfinished
    }
}
