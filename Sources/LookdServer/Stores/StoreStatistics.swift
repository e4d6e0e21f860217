import Locking
import Synchronization

/// What a store reports to `/metrics`: operation latency (a histogram, seconds), the connection pool's use
/// and bound, change notifications received and reconnects. Shared by the store and `Metrics`; thread-safe
/// (atomics, and one short lock per timed operation).
final class StoreStatistics: Sendable {
    /// Latency bucket upper bounds, in seconds.
    static let buckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5]

    private struct Histogram {
        var counts = [UInt64](repeating: 0, count: StoreStatistics.buckets.count + 1)
        var sum = 0.0
        var count: UInt64 = 0
    }

    private let latency = LockedValue(Histogram())
    /// Connections checked out of the pool right now (always 0 or 1 per SQLite connection in use).
    let connectionsInUse = Atomic<Int>(0)
    /// The pool's bound (`--store-connections`; SQLite: its two connections).
    let connectionsLimit = Atomic<Int>(0)
    /// Change notifications received from other replicas (PostgreSQL NOTIFY).
    let notifications = Atomic<UInt64>(0)
    /// Connections re-established after the database was lost (pool and listener).
    let reconnects = Atomic<UInt64>(0)

    init() {}

    /// Runs `body` and records its duration, also when it throws.
    func timed<T>(_ body: () throws -> T) rethrows -> T {
        let clock = ContinuousClock()
        let start = clock.now
        defer {
            let elapsed = start.duration(to: clock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            let bucket = Self.buckets.firstIndex(where: { seconds <= $0 }) ?? Self.buckets.count
            latency.withLock { histogram in
                histogram.counts[bucket] += 1
                histogram.sum += seconds
                histogram.count += 1
            }
        }
        return try body()
    }

    /// The Prometheus text (format 0.0.4) of these statistics.
    func render() -> String {
        let histogram = latency.withLock { $0 }
        var out = PrometheusText.histogram("lookd_store_operation_duration_seconds",
                                           "Time a store operation took (a query or a transaction, with waiting for a connection).",
                                           bounds: Self.buckets, counts: histogram.counts, sum: histogram.sum, count: histogram.count)
        out += PrometheusText.sample("lookd_store_connections_in_use", "gauge", "Store connections in use.", connectionsInUse.load(ordering: .relaxed))
        out += PrometheusText.sample("lookd_store_connections_limit", "gauge", "Most store connections (--store-connections).", connectionsLimit.load(ordering: .relaxed))
        out += PrometheusText.sample("lookd_store_notifications_total", "counter", "Publish notifications received from the store (other replicas' publishes).", notifications.load(ordering: .relaxed))
        out += PrometheusText.sample("lookd_store_reconnects_total", "counter", "Store connections re-established after the database was lost.", reconnects.load(ordering: .relaxed))
        return out
    }
}
