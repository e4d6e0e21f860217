import Foundation
import LookResolver
import Strings
import Synchronization

/// The app-look service: publishes dashboard layers to the store and answers the SDK's fetch from the
/// `LookCache` (the exact response bytes and their ETag per app and language, the resolved look once per app).
///
/// Coherence: a publish here invalidates the app at once; the store's change feed (other replicas' publishes,
/// or "everything is stale" after the feed was lost) invalidates through the same API. While the store is
/// unreachable, cached looks are still served; a miss throws StoreError (503).
final class LookService: Sendable {
    let store: any LookStore
    /// One palette memo for the process: the previews and resolves a daemon answers repeat the same few accents.
    private let resolver = Resolver(paletteCache: PaletteCache())
    private let metrics: Metrics
    let cache: LookCache
    private let localizer: Localizer

    /// Builds the service and subscribes the cache to the store's change feed.
    init(store: any LookStore, metrics: Metrics, limits: Limits, localizer: Localizer) {
        self.store = store
        self.localizer = localizer
        self.metrics = metrics
        let cache = LookCache(capacityBytes: limits.cacheBytes)
        self.cache = cache
        store.watchChanges { change in
            switch change {
            case .app(let appKey): cache.invalidate(appKey: appKey)
            case .all: cache.invalidateAll()
            }
        }
    }

    /// The SDK fetch response for `appKey` (already validated) in `locale`. Throws 404 `app_unknown`
    /// when the app was never published, StoreError when the store fails.
    func fetch(appKey: String, locale: LocaleTag) throws -> CachedLook {
        if let hit = cache.look(appKey: appKey, locale: locale) {
            metrics.cacheHits.add(1, ordering: .relaxed)
            return hit
        }
        metrics.cacheMisses.add(1, ordering: .relaxed)
        let ticket = cache.ticket(appKey: appKey)
        let shared: SharedLook
        if let cached = cache.shared(appKey: appKey) {
            shared = cached
        } else {
            guard let stored = try store.current(appKey: appKey) else { throw HTTPError.appUnknown(appKey) }
            shared = try share(stored)
            cache.keep(shared, appKey: appKey, ticket: ticket)
        }
        let built = build(appKey: appKey, locale: locale, shared)
        cache.keep(built, appKey: appKey, locale: locale, ticket: ticket)
        return built
    }

    /// Publishes `layer` (a validated dashboard layer) as the app's next version, after COMMIT.
    /// Throws PublishConflict when `expected` does not hold, StoreError when the store fails.
    func publish(appKey: String, layer: JSONValue, expected: PublishExpectation?, rolledBackFrom: Int? = nil) throws -> StoredVersion {
        let text = try canonicalJSON(layer)
        let stored = try store.publish(appKey: appKey, layer: text, expected: expected, rolledBackFrom: rolledBackFrom)
        metrics.publishes.add(1, ordering: .relaxed)
        cache.invalidate(appKey: appKey, atLeast: stored.version)
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

    /// The part of a response every language shares: the layer decoded and resolved, the look encoded.
    private func share(_ stored: StoredVersion) throws -> SharedLook {
        let layer = try JSONDecoder().decode(JSONValue.self, from: Data(stored.layer.utf8))
        let resolved = resolver.resolve(LookLayers(dashboard: layer))
        return SharedLook(version: stored.version, layer: stored.layer, publishedAt: stored.publishedAt, resolved: resolved,
                          lookJSON: Array(resolved.jsonData()))
    }

    /// `{"appKey","dashboard","direction","locale","look","publishedAt","texts","version"}` — keys
    /// sorted, the look's own bytes embedded as the resolver encoded them (so equal looks give equal
    /// bytes). `texts` holds the look's texts in `locale`: the reply expectation and each topic's label
    /// and prefill — the team's own translation when it has one for the locale's fallback chain, the
    /// catalog's message for built-in texts.
    private func build(appKey: String, locale: LocaleTag, _ shared: SharedLook) -> CachedLook {
        let resolved = shared.resolved
        let look = shared.lookJSON
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
        body.reserveCapacity(shared.layer.utf8.count + look.count + texts.utf8.count + 200)
        body += Array("{\"appKey\":\(jsonString(appKey)),\"dashboard\":".utf8)
        body += Array(shared.layer.utf8)
        body += Array(",\"direction\":\"\(Localizer.direction(of: locale).rawValue)\",\"locale\":\(jsonString(locale.identifier)),\"look\":".utf8)
        body += look
        body += Array(",\"publishedAt\":\(jsonString(shared.publishedAt)),\"texts\":\(texts),\"version\":\(shared.version)}".utf8)
        return CachedLook(version: shared.version, body: body, etag: "\"v\(shared.version)-\(fnv1a64Hex(body))\"")
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
