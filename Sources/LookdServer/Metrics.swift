import Foundation
import Synchronization

/// Counters and a latency histogram, rendered as Prometheus text (`GET /metrics`).
/// Each request takes one short lock; gauges are atomics.
final class Metrics: Sendable {
    /// Latency histogram bucket upper bounds, in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    private struct Key: Hashable { var method: String; var route: String; var status: Int }
    private struct State {
        var requests: [Key: UInt64] = [:]
        var bucketCounts = [UInt64](repeating: 0, count: Metrics.buckets.count + 1)
        var durationSum = 0.0
        var durationCount: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Requests the engine answered from its fetch table, added to the counts at render time.
    private let fetchTable = Mutex<EngineFetchTable?>(nil)
    let cacheHits = Atomic<UInt64>(0)
    let cacheMisses = Atomic<UInt64>(0)
    let storeErrors = Atomic<UInt64>(0)
    /// Where the open-connection gauge is read (the engine counts connections; nil until a server starts).
    private let openConnections = Mutex<(@Sendable () -> Int)?>(nil)
    let inflightRequests = Atomic<Int>(0)
    let publishes = Atomic<UInt64>(0)
    /// The store's latency, pool use, notifications and reconnects (rendered after the counters above).
    let store = StoreStatistics()

    /// The `method` label's values: the methods lookd's routes use and the other common ones; any other method
    /// (including a malformed one) is counted as `other`, so clients cannot add series or break the page.
    static let methodLabels: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]

    /// The label value for a request method: the method itself when it is one of `methodLabels`, else `other`.
    static func methodLabel(_ method: String) -> String {
        methodLabels.contains(method) ? method : "other"
    }

    /// Counts one answered request. `method` is any method as received; `route` is the matched route's pattern
    /// (or a fixed label for unmatched requests). Thread-safe.
    func recordRequest(method: String, route: String, status: Int, durationSeconds: Double) {
        let method = Self.methodLabel(method)
        let bucket = Self.buckets.firstIndex(where: { durationSeconds <= $0 }) ?? Self.buckets.count
        state.withLock { state in
            state.requests[Key(method: method, route: route, status: status), default: 0] += 1
            state.bucketCounts[bucket] += 1
            state.durationSum += durationSeconds
            state.durationCount += 1
        }
    }

    /// Reads the `lookd_open_connections` gauge from `source` from now on (called by the server when it starts).
    func countConnections(from source: @escaping @Sendable () -> Int) {
        openConnections.withLock { $0 = source }
    }

    /// Counts `table`'s answers with the others from now on (in the duration histogram, in the bucket of their mean).
    func fold(_ table: EngineFetchTable) {
        fetchTable.withLock { $0 = table }
    }

    /// The Prometheus text exposition (format 0.0.4).
    func render() -> String {
        var snapshot = state.withLock { $0 }
        for answered in fetchTable.withLock({ $0?.counts }) ?? [] where answered.count > 0 {
            snapshot.requests[Key(method: answered.method, route: EngineFetchTable.route, status: answered.status), default: 0] += answered.count
            let mean = answered.seconds / Double(answered.count)
            snapshot.bucketCounts[Self.buckets.firstIndex(where: { mean <= $0 }) ?? Self.buckets.count] += answered.count
            snapshot.durationSum += answered.seconds
            snapshot.durationCount += answered.count
        }
        var out = ""
        out += "# HELP lookd_http_requests_total HTTP requests answered, by method, route pattern and status.\n"
        out += "# TYPE lookd_http_requests_total counter\n"
        for (key, count) in snapshot.requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
            out += "lookd_http_requests_total{method=\"\(PrometheusText.escapeLabel(key.method))\",route=\"\(PrometheusText.escapeLabel(key.route))\",status=\"\(key.status)\"} \(count)\n"
        }
        out += PrometheusText.histogram("lookd_http_request_duration_seconds", "Time from a complete request to its response being queued for writing.",
                                        bounds: Self.buckets, counts: snapshot.bucketCounts, sum: snapshot.durationSum, count: snapshot.durationCount)
        out += PrometheusText.sample("lookd_look_cache_hits_total", "counter", "App look fetches answered from the in-memory cache.", cacheHits.load(ordering: .relaxed))
        out += PrometheusText.sample("lookd_look_cache_misses_total", "counter", "App look fetches that read the store.", cacheMisses.load(ordering: .relaxed))
        out += PrometheusText.sample("lookd_store_errors_total", "counter", "Store operations that failed (answered 503).", storeErrors.load(ordering: .relaxed))
        out += PrometheusText.sample("lookd_publishes_total", "counter", "Looks published or rolled back (committed).", publishes.load(ordering: .relaxed))
        out += PrometheusText.sample("lookd_open_connections", "gauge", "Connections currently open.", openConnections.withLock({ $0 })?() ?? 0)
        out += PrometheusText.sample("lookd_inflight_requests", "gauge", "Requests being read or answered.", inflightRequests.load(ordering: .relaxed))
        if let usage = fetchTable.withLock({ $0?.usage }) {
            out += PrometheusText.sample("lookd_fetch_table_apps", "gauge", "Apps whose fetch response pieces the engine holds.", usage.apps)
            out += PrometheusText.sample("lookd_fetch_table_bytes", "gauge", "Bytes the engine's fetch table counts against its capacity.", usage.bytes)
        }
        out += store.render()
        return out
    }
}
