import Foundation
import Locking
import Synchronization

/// Counters and a latency histogram, rendered as Prometheus text (`GET /metrics`).
/// A request the routes answer takes one short lock (`recordRequest`: its count and histogram bucket); a request the
/// engine's response cache answers is counted in C, per thread, and added in at render time (`fold`). The other
/// counters are atomics. Its own gauges are not stored here: open connections and requests in flight are read from
/// the engine (`readGauges`), the response cache's entries and bytes from the cache, when the page is rendered (the
/// store's connection gauges are `StoreStatistics`' atomics). Thread-safe.
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

    private let state = LockedValue(State())
    /// Requests the engine answered from its response cache, added to the counts at render time.
    private let responseCache = LockedValue<EngineResponseCache?>(nil)
    let cacheHits = Atomic<UInt64>(0)
    let cacheMisses = Atomic<UInt64>(0)
    let storeErrors = Atomic<UInt64>(0)
    /// Where the open-connection and in-flight gauges are read (the engine counts both; nil until a server starts).
    private let engineGauges = LockedValue<(openConnections: @Sendable () -> Int, inflight: @Sendable () -> Int)?>(nil)
    let publishes = Atomic<UInt64>(0)
    /// Cached apps a revalidation (after the change feed was lost) kept, and dropped because their version changed.
    let revalidationKept = Atomic<UInt64>(0)
    let revalidationDropped = Atomic<UInt64>(0)
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

    /// Reads the `lookd_open_connections` and `lookd_inflight_requests` gauges from the engine's counts from now on
    /// (called by the server when it starts).
    func readGauges(openConnections: @escaping @Sendable () -> Int, inflight: @escaping @Sendable () -> Int) {
        engineGauges.withLock { $0 = (openConnections, inflight) }
    }

    /// Counts `cache`'s answers with the others from now on (its histogram has the same bounds: each answer is in the
    /// bucket of its own duration).
    func fold(_ cache: EngineResponseCache) {
        precondition(cache.bounds == Self.buckets, "the response cache's histogram must have the metrics' bounds")
        responseCache.withLock { $0 = cache }
    }

    /// The Prometheus text exposition (format 0.0.4).
    func render() -> String {
        var snapshot = state.withLock { $0 }
        if let cached = responseCache.withLock({ $0?.stats }) {
            for answered in cached.counts {
                snapshot.requests[Key(method: answered.method, route: answered.route, status: answered.status), default: 0] += answered.count
                snapshot.durationCount += answered.count
            }
            for (bucket, count) in cached.buckets.enumerated() { snapshot.bucketCounts[bucket] += count }
            snapshot.durationSum += cached.seconds
        }
        var out = ""
        out += "# HELP lookd_http_requests_total HTTP requests answered, by method, route pattern and status.\n"
        out += "# TYPE lookd_http_requests_total counter\n"
        for (key, count) in snapshot.requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
            out += "lookd_http_requests_total{method=\"\(PrometheusText.escapeLabel(key.method))\",route=\"\(PrometheusText.escapeLabel(key.route))\",status=\"\(key.status)\"} \(count)\n"
        }
        out += PrometheusText.histogram("lookd_http_request_duration_seconds", "Time from a request's last bytes arriving (the kernel's receive timestamp) to its response queued for writing, waiting for a busy loop or a worker included.",
                                        bounds: Self.buckets, counts: snapshot.bucketCounts, sum: snapshot.durationSum, count: snapshot.durationCount)
        out += PrometheusText.sample("lookd_look_cache_hits_total", "counter", "App look fetches answered from the in-memory cache.", cacheHits.load(ordering: .relaxed))
        out += PrometheusText.sample("lookd_look_cache_misses_total", "counter", "App look fetches that read the store.", cacheMisses.load(ordering: .relaxed))
        out += PrometheusText.sample("lookd_store_errors_total", "counter", "Store operations that failed (answered 503).", storeErrors.load(ordering: .relaxed))
        out += PrometheusText.sample("lookd_look_cache_revalidated_kept_total", "counter",
                                     "Cached apps kept by a revalidation after the change feed was lost (version unchanged).", revalidationKept.load(ordering: .relaxed))
        out += PrometheusText.sample("lookd_look_cache_revalidated_dropped_total", "counter",
                                     "Cached apps dropped by a revalidation after the change feed was lost (a new version, or none).", revalidationDropped.load(ordering: .relaxed))
        out += PrometheusText.sample("lookd_publishes_total", "counter", "Looks published or rolled back (committed).", publishes.load(ordering: .relaxed))
        let gauges = engineGauges.withLock { $0 }
        out += PrometheusText.sample("lookd_open_connections", "gauge", "Connections currently open.", gauges?.openConnections() ?? 0)
        out += PrometheusText.sample("lookd_inflight_requests", "gauge", "Requests whose head was read and whose response is not yet written (this one included).",
                                     gauges?.inflight() ?? 0)
        if let usage = responseCache.withLock({ $0?.usage }) {
            out += PrometheusText.sample("lookd_response_cache_entries", "gauge", "Responses the engine's response cache holds.", usage.entries)
            out += PrometheusText.sample("lookd_response_cache_bytes", "gauge", "Bytes the engine's response cache counts against its capacity.", usage.bytes)
        }
        out += store.render()
        return out
    }
}
