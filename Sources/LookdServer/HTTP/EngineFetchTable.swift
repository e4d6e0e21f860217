import HTTPEngine

/// The engine's fetch table (docs/http.md, "The engine's fetch table"): cached SDK fetches (`GET` or `HEAD` of
/// `/v1/apps/{appKey}/look?…` with an exact target the Swift side already answered from the look cache) that the
/// event loops answer themselves, 200 or — when `If-None-Match` is exactly the ETag — 304, without building a
/// request, routing or negotiating. Those requests are still counted (`counts`, folded into /metrics) and written
/// to the access log (by the engine, in the same format).
///
/// Coherence: the look cache calls `invalidate` inside each of its own invalidations, so when a publish's cache
/// invalidation returns (before its response is sent) no loop serves the old version any more; a fill is refused
/// when any invalidation happened since its `generation` was read (read it before reading the look cache).
///
/// Thread-safe (the engine's mutex). Owned by the look cache; a server holds it while running.
final class EngineFetchTable: Sendable {
    /// The route label its requests are counted and logged under.
    static let route = "/v1/apps/{appKey}/look"
    // The engine's table. OpaquePointer is not Sendable; every access goes through the engine's mutex.
    nonisolated(unsafe) let table: OpaquePointer

    /// `accessLog`: the descriptor of the access log (nil: none).
    init(accessLog: Int32?) {
        guard let created = he_fetch_table_create(accessLog ?? -1, Self.route) else { fatalError("out of memory creating the fetch table") }
        table = created
    }

    deinit { he_fetch_table_destroy(table) }

    /// The invalidation count; read it before reading the look cache and pass it to `fill`.
    var generation: UInt64 { UInt64(he_fetch_table_generation(table)) }

    /// Keeps `look` for the raw target `path?query` (the query exactly as received). Returns false when refused:
    /// an invalidation since `generation`, or a target longer than 256 bytes.
    @discardableResult
    func fill(generation: UInt64, path: UnsafeBufferPointer<CChar>, query: UnsafeBufferPointer<CChar>, look: CachedLook) -> Bool {
        var etag = look.etag
        return etag.withUTF8 { tag in
            tag.withMemoryRebound(to: CChar.self) { tag in
                he_fetch_table_fill(table, CUnsignedLongLong(generation), path.baseAddress, path.count, query.baseAddress, query.count,
                                    tag.baseAddress, tag.count, look.ok.wire, look.notModified.wire) == 1
            }
        }
    }

    /// Drops the app's entries (every entry when `appKey` is nil) and refuses fills that started before.
    func invalidate(appKey: String?) {
        guard var prefix = appKey.map({ "/v1/apps/\($0)/look?" }) else {
            he_fetch_table_invalidate(table, nil, 0)
            return
        }
        prefix.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { he_fetch_table_invalidate(table, $0.baseAddress, $0.count) }
        }
    }

    /// Requests answered by the table: (method, status, count, summed duration in seconds).
    var counts: [(method: String, status: Int, count: UInt64, seconds: Double)] {
        var counts = [CUnsignedLongLong](repeating: 0, count: 4), micros = [CUnsignedLongLong](repeating: 0, count: 4)
        counts.withUnsafeMutableBufferPointer { countBuffer in
            micros.withUnsafeMutableBufferPointer { he_fetch_table_counts(table, countBuffer.baseAddress, $0.baseAddress) }
        }
        return [("GET", 200), ("GET", 304), ("HEAD", 200), ("HEAD", 304)].enumerated().map { index, key in
            (key.0, key.1, UInt64(counts[index]), Double(micros[index]) / 1e6)
        }
    }
}
