/// Request limits. Each is a `lookd serve` flag; the defaults are sized for looks and strings, with
/// plenty of headroom, while bounding what one client can make the daemon hold.
public struct Limits: Sendable {
    /// Largest request body in bytes (`--max-body`, default 1 MiB). Over it: 413 `body_too_large`.
    public var maxBodyBytes = 1 << 20
    /// Largest `POST /v1/lint` body in bytes (`--max-lint-body`, default 8 MiB). Over it: 413.
    public var maxLintBodyBytes = 8 << 20
    /// Most catalogs in one `POST /v1/lint` request (`--max-lint-locales`, default 64). Over it: 400 `limit_exceeded`.
    public var maxLintLocales = 64
    /// Largest nesting depth of a JSON body (`--max-json-depth`, default 32). Over it: 400 `limit_exceeded`.
    public var maxJSONDepth = 32
    /// Longest JSON string, in UTF-8 bytes after the quotes (`--max-string-bytes`, default 8192). Over it: 400 `limit_exceeded`.
    public var maxStringBytes = 8192
    /// Most topics in a published dashboard layer (`--max-topics`, default 32; the look itself shows at
    /// most 6 and reports the rest as a diagnostic). Over it: 400 `limit_exceeded`.
    public var maxTopics = 32
    /// Largest request header block in bytes, field lines with their CRLFs (`--max-header-bytes`, default 16 KiB). Over it: 431.
    public var maxHeaderBytes = 16 * 1024
    /// Most header fields in one request (default 100). Over it: 431 `headers_too_large`.
    public var maxHeaderFields = 100
    /// Longest request target in bytes (`--max-uri-bytes`, default 4096). Over it: 414 `uri_too_long`.
    public var maxURIBytes = 4096
    /// Most open connections in total (`--max-connections`, default 512). Over it, new connections are refused.
    public var maxConnections = 512
    /// Most open connections from one IP address (`--max-connections-per-ip`, default 128).
    public var maxConnectionsPerIP = 128
    /// Seconds a keep-alive connection may stay idle between requests before it is closed (`--idle-timeout`, default 15).
    public var idleTimeoutSeconds = 15
    /// Seconds from the first byte of a request head to its end (default 10): a client trickling its head
    /// (slowloris) gets 408 `request_timeout` and is closed.
    public var headTimeoutSeconds = 10.0
    /// Seconds a request body may go without a byte arriving (default 15). Over it: 408, closed.
    public var bodyTimeoutSeconds = 15.0
    /// Seconds a response being written may go without the client taking a byte (default 30). Over it the
    /// connection is closed; a client that keeps reading, however slowly, is never cut.
    public var writeTimeoutSeconds = 30.0
    /// Event loop threads, each with its own listening socket (`--threads`, default: the number of CPUs).
    public var threads = 0
    /// Worker threads for the slow routes: lint, resolve, preview, publish (default: the number of CPUs, at least 2).
    public var workerThreads = 0
    /// Slow requests that may wait for a worker (default 256). Beyond it: 503 `overloaded` with Retry-After.
    public var workerQueue = 256
    /// Most bytes of cached looks kept in memory (`--cache-bytes`, default 128 MiB). In the daemon, three quarters go
    /// to the engine's fetch table: per app, the response's shared pieces once (~3.4 KB for a typical look) and each
    /// language's own (~0.4 KB: direction, locale, texts, tag), so every one of 50 languages of about 4,300 apps. The
    /// look cache has the rest: two thirds of it for each app's shared part (~4.6 KB, so about 4,700 apps), one third
    /// for whole responses per app and locale (~9 KB each with their prepared 200 and 304), which answer what the
    /// table does not (Accept-Language, other `lang` spellings). Beyond it, the least recently read go (CLOCK).
    public var cacheBytes = 128 << 20
    /// The part of `cacheBytes` the engine's fetch table takes in the daemon.
    public var fetchTableBytes: Int { cacheBytes / 4 * 3 }

    public init() {}
}
