import Foundation
import LookdServer

/// `lookd serve`: the HTTP daemon (README, section `lookd serve`). Runs until SIGTERM or SIGINT, then stops
/// accepting, finishes in-flight requests (up to `--shutdown-grace` seconds), closes every
/// connection and exits 0.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "run the HTTP daemon (SDK fetch, dashboard publish, resolve)"
    static let usage = """
        lookd serve [--listen 127.0.0.1:8080] [--store sqlite:./.lookd | --store postgresql://…] [--admin-token-file FILE] [options]
          --listen HOST:PORT          numeric address to listen on; port 0 picks a free port (default 127.0.0.1:8080)
          --store URL                 sqlite:DIR (one process) or a libpq URI postgresql://user@host:port/db?… shared by
                                      any number of replicas; put the password in PGPASSWORD or ~/.pgpass (default sqlite:./.lookd)
          --data DIR                  shorthand for --store sqlite:DIR
          --catalogs DIR              the locale catalogs (else $LOOKD_CATALOGS, else ./Resources/Localizations)
          --admin-token-file FILE     the admin bearer token (else LOOKD_ADMIN_TOKEN; none: admin routes answer 403)
          --access-log -|off|FILE     one JSON line per request (default -, standard output)
          --max-body BYTES            largest request body (default 1048576)
          --max-lint-body BYTES       largest POST /v1/lint body (default 8388608)
          --max-lint-locales N        most catalogs per lint request (default 64)
          --max-json-depth N          deepest JSON nesting (default 32)
          --max-string-bytes BYTES    longest JSON string (default 8192)
          --max-topics N              most topics in a published layer (default 32)
          --max-header-bytes BYTES    largest header block (default 16384)
          --max-uri-bytes BYTES       longest request target (default 4096)
          --max-connections N         open connections in total (default 512)
          --max-connections-per-ip N  open connections per client address (default 128)
          --connections-for-new-ips N connection slots only addresses with no open connection may take (default 32)
          --min-data-rate BYTES       slowest a request head or body may arrive after its first 5 s, per second (default 1024)
          --idle-timeout SECONDS      close idle connections after this (default 15)
          --threads N                 event loop threads (default: number of CPUs)
          --cache-bytes BYTES         memory for cached looks: the response cache (13/16), shared parts (1/6) and responses (default 134217728)
          --no-purge-keys             do not send Surrogate-Key and Cache-Tag (the app key) on the SDK fetch's answers
                                      (default: sent, for a CDN in front that purges by key)
          --no-prefill                do not build a published version's every language into the response cache after
                                      a publish here, nor every app's at start (default: built, so its first fetches
                                      are the cache's)
          --store-busy-timeout MS     SQLite: how long a write waits for a lock; PostgreSQL: each statement's timeout (default 5000)
          --store-connections N       PostgreSQL: most pooled connections, beside the listener's own (default 8)
          --shutdown-grace SECONDS    how long in-flight requests may take after SIGTERM (default 5)
          --feed-token-file FILE      the change feed's bearer token, GET /v1/changes (none: the feed answers 403)
          --feed-retention-days N     change events older than this are compacted, 1-3650 (default 7)
          --webhook URL               POST every change event, signed, to URL (repeatable; needs --webhook-secret-file)
          --webhook-secret-file FILE  the webhook signing secret (HMAC-SHA256; at least 16 characters)
          --webhook-timeout SECONDS   one delivery attempt's deadline, 1-120 (default 10)
          --webhook-lease-seconds N   how long a replica holds a delivery it attempts; a dead holder's is taken over
                                      after this; more than --webhook-timeout, up to 3600 (default 30)
        """

    static let known: Set<String> = [
        "listen", "data", "admin-token-file", "access-log", "max-body", "max-json-depth", "max-string-bytes", "max-topics",
        "max-header-bytes", "max-uri-bytes", "max-connections", "max-connections-per-ip", "idle-timeout", "threads",
        "connections-for-new-ips", "min-data-rate",
        "cache-bytes", "max-lint-body", "max-lint-locales", "shutdown-grace", "catalogs", "store-busy-timeout",
        "store", "store-connections", "feed-token-file", "feed-retention-days", "webhook", "webhook-secret-file",
        "webhook-timeout", "webhook-lease-seconds", "no-purge-keys", "no-prefill",
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(known)
        guard arguments.positionals.isEmpty else { throw UsageError("serve takes no positional arguments") }
        let (host, port) = try parseListen(arguments.value("listen") ?? "127.0.0.1:8080")
        var limits = Limits()
        func number(_ name: String, _ range: ClosedRange<Int>, _ keyPath: WritableKeyPath<Limits, Int>) throws {
            guard let text = arguments.value(name) else { return }
            guard let value = Int(text), range.contains(value) else { throw UsageError("--\(name) takes a number from \(range.lowerBound) to \(range.upperBound)") }
            limits[keyPath: keyPath] = value
        }
        try number("max-body", 1024...(1 << 30), \.maxBodyBytes)
        try number("max-lint-body", 1024...(1 << 30), \.maxLintBodyBytes)
        try number("max-lint-locales", 1...10_000, \.maxLintLocales)
        try number("max-json-depth", 2...1000, \.maxJSONDepth)
        try number("max-string-bytes", 64...(1 << 24), \.maxStringBytes)
        try number("max-topics", 6...10_000, \.maxTopics)
        try number("max-header-bytes", 1024...(1 << 20), \.maxHeaderBytes)
        try number("max-uri-bytes", 256...(1 << 20), \.maxURIBytes)
        try number("max-connections", 1...100_000, \.maxConnections)
        try number("max-connections-per-ip", 1...100_000, \.maxConnectionsPerIP)
        try number("connections-for-new-ips", 0...50_000, \.connectionsForNewAddresses)
        try number("min-data-rate", 1...(1 << 30), \.minDataRate)
        try number("idle-timeout", 1...3600, \.idleTimeoutSeconds)
        try number("threads", 1...256, \.threads)
        try number("cache-bytes", 0...(1 << 34), \.cacheBytes)
        let graceText = arguments.value("shutdown-grace") ?? "5"
        guard let grace = Double(graceText), grace >= 0, grace <= 600 else { throw UsageError("--shutdown-grace takes seconds from 0 to 600") }

        // Before the server's threads start (they inherit the mask): only this thread receives the signals.
        StopSignals.block()

        var configuration = DaemonConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.limits = limits
        configuration.adminTokenFile = arguments.value("admin-token-file")
        configuration.environment = ProcessInfo.processInfo.environment
        configuration.accessLog = arguments.value("access-log") ?? "-"
        configuration.purgeKeys = !arguments.flag("no-purge-keys")
        configuration.prefill = !arguments.flag("no-prefill")
        switch (arguments.value("store"), arguments.value("data")) {
        case (let store?, nil): configuration.store = store
        case (nil, let directory?): configuration.store = "sqlite:" + directory
        case (nil, nil): break
        case (.some, .some): throw UsageError("give --store or --data, not both")
        }
        let connectionsText = arguments.value("store-connections") ?? "8"
        guard let connections = Int(connectionsText), (1...1000).contains(connections) else { throw UsageError("--store-connections takes a number from 1 to 1000") }
        configuration.storeConnections = connections
        let busyText = arguments.value("store-busy-timeout") ?? "5000"
        guard let busy = Int32(busyText), (0...600_000).contains(busy) else { throw UsageError("--store-busy-timeout takes milliseconds from 0 to 600000") }
        configuration.storeBusyTimeoutMilliseconds = busy
        configuration.feedTokenFile = arguments.value("feed-token-file")
        let retentionText = arguments.value("feed-retention-days") ?? "7"
        guard let retention = Int(retentionText), (1...3650).contains(retention) else { throw UsageError("--feed-retention-days takes a number from 1 to 3650") }
        configuration.feedRetentionDays = retention
        configuration.webhooks = arguments.values("webhook")
        configuration.webhookSecretFile = arguments.value("webhook-secret-file")
        let timeoutText = arguments.value("webhook-timeout") ?? "10"
        guard let timeout = Int(timeoutText), (1...120).contains(timeout) else { throw UsageError("--webhook-timeout takes seconds from 1 to 120") }
        let leaseText = arguments.value("webhook-lease-seconds") ?? "30"
        guard let lease = Int(leaseText), lease > timeout, lease <= 3600 else {
            throw UsageError("--webhook-lease-seconds takes seconds above --webhook-timeout (\(timeout)) and up to 3600")
        }
        configuration.webhookTimeoutSeconds = timeout
        configuration.webhookLeaseSeconds = lease
        let localizer = try CatalogLocator.localizer(arguments)
        let daemon = try Daemon(configuration: configuration, localizer: localizer)
        let bound = try daemon.start()
        let shown = host.contains(":") ? "[\(host)]" : host
        Console.error("lookd: listening on http://\(shown):\(bound) (store \(daemon.storeLocation); admin API \(daemon.adminEnabled ? "on" : "off: no token"); change feed \(daemon.feedEnabled ? "on" : "off: no token"); \(configuration.webhooks.count) webhook(s))")

        let received = StopSignals.waitForStop { Console.error($0) }
        Console.error("lookd: signal \(received): stopping (grace \(graceText) s)")
        let unfinished = daemon.stop(grace: grace)
        if unfinished > 0 { Console.error("lookd: \(unfinished) request(s) were still in flight and were closed") }
        Console.error("lookd: stopped")
        return 0
    }

    /// Splits `HOST:PORT` (or `[IPv6]:PORT`). Throws a usage error when either part is missing or bad.
    static func parseListen(_ text: String) throws -> (String, UInt16) {
        guard let colon = text.lastIndex(of: ":") else { throw UsageError("--listen takes HOST:PORT, e.g. 127.0.0.1:8080") }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = UInt16(text[text.index(after: colon)...]) else {
            throw UsageError("--listen takes HOST:PORT with a port from 0 to 65535, e.g. 127.0.0.1:8080")
        }
        return (host, port)
    }
}
