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
    /// Largest request header block in bytes, names + values (`--max-header-bytes`, default 16 KiB). Over it: 431.
    public var maxHeaderBytes = 16 * 1024
    /// Longest request target in bytes (`--max-uri-bytes`, default 4096). Over it: 414 `uri_too_long`.
    public var maxURIBytes = 4096
    /// Most open connections in total (`--max-connections`, default 512). Over it, new connections are refused.
    public var maxConnections = 512
    /// Most open connections from one IP address (`--max-connections-per-ip`, default 128).
    public var maxConnectionsPerIP = 128
    /// Seconds a connection may stay idle before it is closed (`--idle-timeout`, default 15).
    /// libmicrohttpd's timeout is idle-only: a client trickling bytes is bounded by the connection
    /// limits and by the reverse proxy's header deadline (README, section `lookd serve`), not by this.
    public var idleTimeoutSeconds = 15
    /// Worker threads polling connections (`--threads`, default: the number of CPUs).
    public var threads = 0
    /// Most bytes of cached look responses (one per app and locale, ~1–3 KB each) kept in memory
    /// (`--cache-bytes`, default 8 MiB, about 3,000 responses). Beyond it, arbitrary entries are evicted.
    public var cacheBytes = 8 << 20

    public init() {}
}
