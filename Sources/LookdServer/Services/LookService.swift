import Foundation
import LookResolver
import Strings
import Synchronization

/// The app-look service: publishes dashboard layers to the store and answers the SDK's fetch from a
/// warm in-memory cache of the exact response bytes and their ETag.
///
/// Cache: (app key, locale) → the response for the app's current version. Filled on a miss from the store,
/// dropped for an app when it publishes. A fill that read an older version than one published since
/// (a fetch racing a publish) is not kept: each app's last published version is remembered as a
/// floor. At most `Limits.cacheBytes` are kept; beyond that arbitrary entries are evicted.
final class LookService: Sendable {
    /// One cached SDK fetch response.
    struct CachedLook: Sendable {
        var version: Int
        var body: [UInt8]
        /// Strong ETag: `"v<version>-<16 hex digits of FNV-1a-64 over body>"`. Equal bytes, equal tag.
        var etag: String
        /// The 200 and the 304 as wire bytes built once per fill: a cache hit is written without building anything.
        var ok: PreparedResponse
        var notModified: PreparedResponse

        init(version: Int, body: [UInt8], etag: String, locale: LocaleTag) {
            self.version = version
            self.body = body
            self.etag = etag
            let headers: [(name: String, value: String)] = [
                ("ETag", etag), ("Content-Language", locale.identifier), ("Vary", "Accept-Language"),
                // A CDN may serve it for 30 s and revalidate in the background for 60 s more; a
                // publish is therefore visible everywhere within 90 s.
                ("Cache-Control", "public, max-age=30, stale-while-revalidate=60"),
            ]
            ok = PreparedResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, body: body)
            notModified = PreparedResponse(status: 304, headers: headers, body: [])
        }
    }

    private struct CacheKey: Hashable {
        var appKey: String
        var locale: LocaleTag
    }

    private struct Cache {
        var entries: [CacheKey: CachedLook] = [:]
        var floors: [String: Int] = [:]
        /// Bytes of cached bodies plus a fixed per-entry overhead estimate.
        var bytes = 0

        mutating func remove(_ key: CacheKey) {
            if let old = entries.removeValue(forKey: key) { bytes -= Cache.cost(key, old) }
        }

        /// The body twice (the Swift bytes and the prepared wire bytes) plus heads and bookkeeping.
        static func cost(_ key: CacheKey, _ look: CachedLook) -> Int { 2 * look.body.count + key.appKey.utf8.count + 600 }
    }

    let store: LookStore
    /// One palette memo for the process: the previews and resolves a daemon answers repeat the same few accents.
    private let resolver = Resolver(paletteCache: PaletteCache())
    private let metrics: Metrics
    private let limits: Limits
    private let cache = Mutex(Cache())
    private let localizer: Localizer

    init(store: LookStore, metrics: Metrics, limits: Limits, localizer: Localizer) {
        self.store = store
        self.localizer = localizer
        self.metrics = metrics
        self.limits = limits
    }

    /// The SDK fetch response for `appKey` (already validated) in `locale`. Throws 404 `app_unknown`
    /// when the app was never published, StoreError when the store fails.
    func fetch(appKey: String, locale: LocaleTag) throws -> CachedLook {
        let cacheKey = CacheKey(appKey: appKey, locale: locale)
        if let hit = cache.withLock({ $0.entries[cacheKey] }) {
            metrics.cacheHits.add(1, ordering: .relaxed)
            return hit
        }
        metrics.cacheMisses.add(1, ordering: .relaxed)
        guard let stored = try store.current(appKey: appKey) else { throw HTTPError.appUnknown(appKey) }
        let built = try build(appKey: appKey, locale: locale, stored)
        let capacity = limits.cacheBytes
        let cost = Cache.cost(cacheKey, built)
        cache.withLock { cache in
            guard built.version >= cache.floors[appKey, default: 0], cost <= capacity else { return }
            cache.remove(cacheKey)
            while cache.bytes + cost > capacity, let victim = cache.entries.first?.key {
                cache.remove(victim)
            }
            cache.entries[cacheKey] = built
            cache.bytes += cost
        }
        return built
    }

    /// Publishes `layer` (a validated dashboard layer) as the app's next version, after COMMIT.
    /// Throws PublishConflict when `expected` does not hold, StoreError when the store fails.
    func publish(appKey: String, layer: JSONValue, expected: PublishExpectation?, rolledBackFrom: Int? = nil) throws -> StoredVersion {
        let text = try canonicalJSON(layer)
        let stored = try store.publish(appKey: appKey, layer: text, expected: expected, rolledBackFrom: rolledBackFrom)
        metrics.publishes.add(1, ordering: .relaxed)
        cache.withLock { cache in
            for locale in LocaleTag.all { cache.remove(CacheKey(appKey: appKey, locale: locale)) }
            cache.floors[appKey] = max(cache.floors[appKey, default: 0], stored.version)
        }
        return stored
    }

    /// Republishes version `to` as a new version. Throws 404 `app_unknown` / `version_unknown`,
    /// PublishConflict, StoreError.
    func rollback(appKey: String, to version: Int, expected: PublishExpectation?) throws -> StoredVersion {
        guard let old = try store.version(appKey: appKey, version) else {
            if try store.current(appKey: appKey) == nil { throw HTTPError.appUnknown(appKey) }
            throw HTTPError(status: 404, code: "version_unknown", message: "this app has no version \(version)")
        }
        let layer = try JSONDecoder().decode(JSONValue.self, from: Data(old.layer.utf8))
        return try publish(appKey: appKey, layer: layer, expected: expected, rolledBackFrom: version)
    }

    /// Resolves layers for a preview (nothing stored). Returns the resolved look's stable JSON bytes.
    func resolve(_ layers: LookLayers) -> [UInt8] {
        Array(resolver.resolve(layers).jsonData())
    }

    /// The resolved look of layers (nothing stored), for the HTML preview.
    func look(_ layers: LookLayers) -> ResolvedLook {
        resolver.resolve(layers)
    }

    /// The app's published dashboard layer. Throws 404 `app_unknown` when it was never published,
    /// StoreError when the store fails.
    func publishedLayer(appKey: String) throws -> JSONValue {
        guard let stored = try store.current(appKey: appKey) else { throw HTTPError.appUnknown(appKey) }
        return try JSONDecoder().decode(JSONValue.self, from: Data(stored.layer.utf8))
    }

    /// `{"appKey","dashboard","direction","locale","look","publishedAt","texts","version"}` — keys
    /// sorted, the look's own bytes embedded as the resolver encoded them (so equal looks give equal
    /// bytes). `texts` holds the look's texts in `locale`: the reply expectation and each topic's label
    /// and prefill — the team's own translation when it has one for the locale's fallback chain, the
    /// catalog's message for built-in texts.
    private func build(appKey: String, locale: LocaleTag, _ stored: StoredVersion) throws -> CachedLook {
        let layer = try JSONDecoder().decode(JSONValue.self, from: Data(stored.layer.utf8))
        let resolved = resolver.resolve(LookLayers(dashboard: layer))
        let look = resolved.jsonData()
        let chain = localizer.fallbackChain(for: locale).map(\.identifier)
        func localized(_ text: LocalizedText) -> String {
            if case .catalog(let key, let english) = text {
                return (try? localizer.format(key: key, locale: locale).text) ?? english
            }
            return text.text(preferring: chain)
        }
        var texts = "{\"replyExpectation\":" + jsonString(localized(resolved.replyExpectation.value)) + ",\"topics\":["
        texts += resolved.topics.value.map { topic in
            "{\"id\":\(jsonString(topic.id)),\"label\":\(jsonString(localized(topic.label))),\"prefill\":"
                + (topic.prefill.map { jsonString(localized($0)) } ?? "null") + "}"
        }.joined(separator: ",")
        texts += "]}"
        var body: [UInt8] = []
        body.reserveCapacity(stored.layer.utf8.count + look.count + texts.utf8.count + 200)
        body += Array("{\"appKey\":\(jsonString(appKey)),\"dashboard\":".utf8)
        body += Array(stored.layer.utf8)
        body += Array(",\"direction\":\"\(Localizer.direction(of: locale).rawValue)\",\"locale\":\(jsonString(locale.identifier)),\"look\":".utf8)
        body += Array(look)
        body += Array(",\"publishedAt\":\(jsonString(stored.publishedAt)),\"texts\":\(texts),\"version\":\(stored.version)}".utf8)
        return CachedLook(version: stored.version, body: body, etag: "\"v\(stored.version)-\(fnv1a64Hex(body))\"", locale: locale)
    }
}

/// A JSON value as canonical text: sorted keys, no insignificant whitespace.
func canonicalJSON(_ value: JSONValue) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// FNV-1a, 64-bit, as 16 lower-case hex digits. Not cryptographic: it tells byte strings apart for ETags.
func fnv1a64Hex(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
