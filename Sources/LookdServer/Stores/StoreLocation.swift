import Foundation

/// Where the looks are stored, from `--store URL`: `sqlite:DIR` (the embedded default, one process) or a
/// libpq URI `postgresql://user[:password]@host[:port][,host2…]/db?…` (also `postgres://`), the shared store of
/// any number of replicas. `open` is the one place that picks a back end.
///
/// Passwords: `redacted` (for logs, errors and metrics) replaces the URI's password and any `password=`
/// parameter with `***`; errors from the store are scrubbed of it too. Prefer `PGPASSWORD` or `~/.pgpass`.
public enum StoreLocation: Sendable, Equatable {
    case sqlite(directory: String)
    case postgres(uri: String)

    /// What a store is opened with, beside its location.
    public struct Options: Sendable {
        /// SQLite: how long a write waits for a lock. PostgreSQL: `statement_timeout` and `lock_timeout` of every
        /// session, and how long an operation waits for a pooled connection. Milliseconds, 0–600000 (0: no bound).
        public var timeoutMilliseconds = 5000
        /// PostgreSQL: most pooled connections (1–1000), beside the listener's own.
        public var connections = 8

        public init() {}
    }

    /// Parses `sqlite:DIR`, `postgresql://…` or `postgres://…`. Throws ConfigurationError otherwise (the
    /// message shows the text redacted).
    public static func parse(_ text: String) throws -> StoreLocation {
        if text.hasPrefix("sqlite:") {
            let directory = String(text.dropFirst("sqlite:".count))
            guard !directory.isEmpty else { throw ConfigurationError("--store sqlite:DIR needs a directory, e.g. sqlite:./.lookd") }
            return .sqlite(directory: directory)
        }
        if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") {
            return .postgres(uri: text)
        }
        throw ConfigurationError("--store takes sqlite:DIR or postgresql://user@host:port/db, not \(redact(text))")
    }

    /// The location for logs, errors and metrics: the password replaced by `***`.
    public var redacted: String {
        switch self {
        case .sqlite(let directory): "sqlite:" + directory
        case .postgres(let uri): Self.redact(uri)
        }
    }

    /// Opens the store (creating or migrating its schema). Throws ConfigurationError when it cannot be
    /// opened (the message names the location redacted, never a password).
    func open(_ options: Options, statistics: StoreStatistics) throws -> any LookStore {
        do {
            switch self {
            case .sqlite(let directory):
                return try SQLiteLookStore(directory: directory, busyTimeoutMilliseconds: Int32(options.timeoutMilliseconds), statistics: statistics)
            case .postgres(let uri):
                return try PostgresLookStore(uri: uri, displayLocation: redacted, secrets: Self.secrets(uri), connections: options.connections,
                                             statementTimeoutMilliseconds: options.timeoutMilliseconds, statistics: statistics)
            }
        } catch let error as StoreError {
            throw ConfigurationError("cannot open the store \(redacted): \(error)")
        }
    }

    /// The passwords a URI carries (its user-info password and any `password=` parameter), as written and
    /// percent-decoded.
    static func secrets(_ uri: String) -> [String] {
        var found: [String] = []
        if let range = passwordRange(uri) { found.append(String(uri[range])) }
        for range in parameterPasswordRanges(uri) { found.append(String(uri[range])) }
        found += found.compactMap { $0.removingPercentEncoding }
        return Array(Set(found.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    /// `text` with a URI's passwords replaced by `***`.
    static func redact(_ text: String) -> String {
        var result = text
        for range in (parameterPasswordRanges(text) + [passwordRange(text)].compactMap { $0 }).sorted(by: { $0.lowerBound > $1.lowerBound }) {
            result.replaceSubrange(range, with: "***")
        }
        return result
    }

    /// The password of `scheme://user:password@host…` (the user info ends at the last `@` before the path).
    private static func passwordRange(_ uri: String) -> Range<String.Index>? {
        guard let scheme = uri.range(of: "://") else { return nil }
        let authorityEnd = uri[scheme.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? uri.endIndex
        let authority = uri[scheme.upperBound..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        let start = authority.index(after: colon)
        return start < at ? start..<at : nil
    }

    /// The values of `password=` parameters in the query part.
    private static func parameterPasswordRanges(_ uri: String) -> [Range<String.Index>] {
        guard let question = uri.firstIndex(of: "?") else { return [] }
        var ranges: [Range<String.Index>] = []
        var position = uri.index(after: question)
        while position < uri.endIndex {
            let end = uri[position...].firstIndex(of: "&") ?? uri.endIndex
            let pair = uri[position..<end]
            if let equals = pair.firstIndex(of: "="), pair[..<equals].lowercased() == "password" {
                let start = uri.index(after: equals)
                if start < end { ranges.append(start..<end) }
            }
            position = end < uri.endIndex ? uri.index(after: end) : end
        }
        return ranges
    }
}
