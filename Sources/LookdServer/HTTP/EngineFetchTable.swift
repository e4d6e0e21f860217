import HTTPEngine
import Strings

/// The engine's fetch table (docs/http.md, "The engine's fetch table"): per app, the pieces of its SDK fetch response
/// (`FetchBody`: what every language shares, once, and each language's own), from which the event loops answer a
/// `GET` or `HEAD` of `/v1/apps/{appKey}/look?lang=<id>` themselves — 200, or 304 when `If-None-Match` is exactly the
/// ETag — without building a request, routing or negotiating. `<id>` must be exactly one of `languages`: the
/// locales whose own identifier negotiates to themselves, so the answer is the one the route would give. Those
/// requests are still counted (`counts`, folded into /metrics) and written to the access log (by the engine, in the
/// same format).
///
/// Filled by the look service (an app's languages all at once while there is room, then one at a time); bounded by
/// `capacityBytes`, apps evicted by CLOCK.
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
    /// The most bytes the apps' pieces take (of `Limits.cacheBytes`; the look cache has the rest).
    let capacityBytes: Int
    /// The languages the table answers, by their index in the engine.
    private let languageIndex: [LocaleTag: Int]
    /// The languages the table answers, in the engine's order.
    let languages: [LocaleTag]

    /// What a fill did.
    enum Fill {
        /// Not kept (see `fill`).
        case refused
        /// Kept beside the app's other languages.
        case added
        /// Kept as the app's first language.
        case firstOfApp
    }

    /// `accessLog`: the descriptor of the access log (nil: none). `capacityBytes`: the bound of the apps' pieces.
    /// `localizer`: which locales' identifiers negotiate to themselves (the languages answered).
    init(accessLog: Int32?, capacityBytes: Int, localizer: Localizer) {
        let languages = LocaleTag.allIncludingPseudo.filter { localizer.negotiate(language: $0.identifier, acceptLanguage: nil) == $0 }
        self.capacityBytes = capacityBytes
        self.languages = languages
        languageIndex = Dictionary(uniqueKeysWithValues: languages.enumerated().map { ($1, $0) })
        // The fields of every answer, with 0x01 where the tag goes and 0x02 where the language's id goes.
        let templates = CachedLook.headers(etag: "\u{1}", language: "\u{2}")
        let ok = wireFields(templates.ok), notModified = wireFields(templates.notModified)
        let created = he_fetch_table_create(accessLog ?? -1, Self.route, "/v1/apps/", "/look",
                                            languages.map(\.identifier).joined(separator: " "),
                                            String(decoding: ok, as: UTF8.self), String(decoding: notModified, as: UTF8.self), max(0, capacityBytes))
        guard let created else { fatalError("out of memory creating the fetch table") }
        table = created
    }

    deinit { he_fetch_table_destroy(table) }

    /// The invalidation count; read it before reading the look cache and pass it to `fill`.
    var generation: UInt64 { UInt64(he_fetch_table_generation(table)) }

    /// Keeps `look`'s language of its app version. Refused: an invalidation since `generation`, a language the table
    /// does not answer, or pieces over the engine's bounds (an app key over 128 bytes, a tag over 96) or over the
    /// capacity.
    @discardableResult
    func fill(generation: UInt64, look: CachedLook) -> Fill {
        guard let language = languageIndex[look.locale] else { return .refused }
        var key = look.appKey, etag = look.etag
        return key.withUTF8 { key in
            etag.withUTF8 { etag in
                look.shared.bytes.withUnsafeBufferPointer { shared in
                    look.language.bytes.withUnsafeBufferPointer { own in
                        key.withMemoryRebound(to: CChar.self) { key in
                            etag.withMemoryRebound(to: CChar.self) { etag in
                                var fill = he_fetch_fill(
                                    key: key.baseAddress, key_len: key.count, version: Int64(look.version), shared: shared.baseAddress,
                                    shared_len: shared.count, cut1: look.shared.cut1, cut2: look.shared.cut2, language: language,
                                    language_bytes: own.baseAddress, language_len: own.count, language_cut: look.language.cut,
                                    etag: etag.baseAddress, etag_len: etag.count)
                                switch he_fetch_table_fill(table, CUnsignedLongLong(generation), &fill) {
                                case 2: return .firstOfApp
                                case 1: return .added
                                default: return .refused
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Drops the app (every app when `appKey` is nil) and refuses fills that started before.
    func invalidate(appKey: String?) {
        guard var key = appKey else {
            he_fetch_table_invalidate(table, nil, 0)
            return
        }
        key.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { he_fetch_table_invalidate(table, $0.baseAddress, $0.count) }
        }
    }

    /// The apps held and the bytes their pieces count.
    var usage: (apps: Int, bytes: Int) {
        var apps = 0, bytes = 0
        he_fetch_table_usage(table, &apps, &bytes)
        return (apps, bytes)
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
