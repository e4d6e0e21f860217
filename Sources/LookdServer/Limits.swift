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
    /// Connection slots, of `maxConnections`, kept for addresses with no open connection (`--connections-for-new-ips`,
    /// default 32; 0: none; at most half of `maxConnections`). When the table is full for a newcomer, the idle
    /// keep-alive connection idle longest (of any other address), else the request arriving slowest of an address
    /// holding at least as many connections, is closed to make room; only then is the newcomer refused (503
    /// `too_many_connections`).
    public var connectionsForNewAddresses = 32
    /// The slowest a request head or body may arrive, in bytes per second (`--min-data-rate`, default 1024), once it
    /// has been arriving for longer than `dataRateGraceSeconds` (default 5). Slower: 408 `request_timeout`, closed.
    public var minDataRate = 1024
    public var dataRateGraceSeconds = 5.0
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
    /// Worker threads for the slow routes: lint, resolve, preview, history, reports (default: the number of CPUs,
    /// at least 2).
    public var workerThreads = 0
    /// More worker threads reserved for the SDK fetch's misses and for publishes (`WorkerLane.reserved`, default 2):
    /// those never wait behind lint, resolve or preview, however many of those run. Shared workers also take them
    /// first when idle.
    public var reservedWorkerThreads = 2
    /// Slow requests that may wait for a worker, in each lane (default 256). Beyond it: 503 `overloaded` with
    /// Retry-After.
    public var workerQueue = 256
    /// Bytes of request bodies all connections together may hold while they are read (default 128 MiB): a body
    /// with Content-Length reserves its length, a chunked one its route's limit, until its request is answered.
    /// Beyond it: 503 `overloaded` with Retry-After, and the connection closes.
    public var bodyBudgetBytes = 128 << 20
    /// Most bytes of cached looks kept in memory (`--cache-bytes`, default 128 MiB). In the daemon, 13/16 (104 MiB)
    /// go to the engine's response cache: per (app, language) target, a prepared 200 whose head starts with the app
    /// version's shared prefix and whose body references its shared pieces (both held once) and owns the language's own
    /// (~0.4 KB): about 670 bytes an entry in all, so the 3,000-app × 50-language spread's 150,000 targets all fit
    /// (docs/benchmarks.md, run Q). The look cache has the rest (24 MiB): `lookSharedBytes` (a sixth, 21.3 MiB) for each
    /// app's shared part (~4.6 KB; the engine keeps one more copy of its body pieces per app version), and what is left
    /// (2.7 MiB) for whole responses per app and locale (~9 KB each with their prepared 200 and 304), which answer what
    /// the response cache does not (Accept-Language, conditional requests other than If-None-Match). Beyond it, the
    /// least recently read go (CLOCK).
    public var cacheBytes = 128 << 20
    /// The part of `cacheBytes` the engine's response cache takes in the daemon. (It was three quarters while an entry
    /// was ~866 bytes and the look cache's responses had 10.7 MiB; the fetches `?lang=` decides are the response cache's,
    /// so that ring was idle under the spread, and gave the response cache its share: run Q.)
    public var responseCacheBytes: Int { cacheBytes / 16 * 13 }
    /// The part of `cacheBytes` the look cache's shared parts take in the daemon (as before run Q, when they were two
    /// thirds of the quarter the response cache left).
    public var lookSharedBytes: Int { cacheBytes / 6 }

    public init() {}
}
