import Foundation

/// Brings the look cache back in line with the store once the change feed listens again (`StoreChange.all`):
/// instead of dropping every cached look, it reads the current version of every cached app (one query per few
/// hundred apps) and drops only those published (or gone) in the gap; the rest are kept and still served. Runs on
/// the feed's thread, so notifications that arrive meanwhile are applied after it. When the store cannot be read
/// for `retrySeconds` (the pool is still reconnecting), it retries every 100 ms, then drops everything (the only
/// answer that is certainly not stale).
enum CacheRevalidation {
    static let retrySeconds = 2.0

    static func run(cache: LookCache, store: any LookStore, metrics: Metrics) {
        let checked = cache.beginRevalidation()
        let deadline = Date().addingTimeInterval(retrySeconds)
        while true {
            do {
                let current = checked.isEmpty ? [:] : try store.currentVersions(appKeys: Array(checked.keys))
                let dropped = cache.revalidate(current: current, checked: checked)
                if !checked.isEmpty {
                    ServerLog.error("lookd: store: change feed back; \(checked.count - dropped) cached app(s) unchanged and kept, \(dropped) dropped")
                }
                metrics.revalidationDropped.add(UInt64(dropped), ordering: .relaxed)
                metrics.revalidationKept.add(UInt64(checked.count - dropped), ordering: .relaxed)
                return
            } catch {
                guard Date() < deadline else {
                    ServerLog.error("lookd: store: the look cache could not be revalidated (\(error)); dropping it")
                    cache.invalidateAll()
                    return
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }
}
