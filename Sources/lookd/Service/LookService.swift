import Foundation
import LookResolver
import Synchronization

/// The app-look service: publishes dashboard layers to the store and answers the SDK's fetch from a
/// warm in-memory cache of the exact response bytes and their ETag.
///
/// Cache: app key → the response for the app's current version. Filled on a miss from the store,
/// dropped for an app when it publishes. A fill that read an older version than one published since
/// (a fetch racing a publish) is not kept: each app's last published version is remembered as a
/// floor. At most `Limits.cacheEntries` responses are kept; beyond that an arbitrary one is evicted.
final class LookService: Sendable {
    /// One cached SDK fetch response.
    struct CachedLook: Sendable {
        var version: Int
        var body: [UInt8]
        /// Strong ETag: `"v<version>-<16 hex digits of FNV-1a-64 over body>"`. Equal bytes, equal tag.
        var etag: String
    }

    private struct Cache {
        var entries: [String: CachedLook] = [:]
        var floors: [String: Int] = [:]
    }

    let store: LookStore
    private let resolver = Resolver()
    private let metrics: Metrics
    private let limits: Limits
    private let cache = Mutex(Cache())

    init(store: LookStore, metrics: Metrics, limits: Limits) {
        self.store = store
        self.metrics = metrics
        self.limits = limits
    }

    /// The SDK fetch response for `appKey` (already validated). Throws 404 `app_unknown` when the app
    /// was never published, StoreError when the store fails.
    func fetch(appKey: String) throws -> CachedLook {
        if let hit = cache.withLock({ $0.entries[appKey] }) {
            metrics.cacheHits.add(1, ordering: .relaxed)
            return hit
        }
        metrics.cacheMisses.add(1, ordering: .relaxed)
        guard let stored = try store.current(appKey: appKey) else { throw HTTPError.appUnknown(appKey) }
        let built = try build(appKey: appKey, stored)
        let capacity = limits.cacheEntries
        cache.withLock { cache in
            guard built.version >= cache.floors[appKey, default: 0], capacity > 0 else { return }
            if cache.entries[appKey] == nil && cache.entries.count >= capacity {
                cache.entries.remove(at: cache.entries.startIndex)
            }
            cache.entries[appKey] = built
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
            cache.entries[appKey] = nil
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

    /// `{"appKey","dashboard","look","publishedAt","version"}` — keys sorted, the look's own bytes
    /// embedded as the resolver encoded them (so equal looks give equal bytes).
    private func build(appKey: String, _ stored: StoredVersion) throws -> CachedLook {
        let layer = try JSONDecoder().decode(JSONValue.self, from: Data(stored.layer.utf8))
        let look = resolver.resolve(LookLayers(dashboard: layer)).jsonData()
        var body: [UInt8] = []
        body.reserveCapacity(stored.layer.utf8.count + look.count + 160)
        body += Array("{\"appKey\":\(jsonString(appKey)),\"dashboard\":".utf8)
        body += Array(stored.layer.utf8)
        body += Array(",\"look\":".utf8)
        body += Array(look)
        body += Array(",\"publishedAt\":\(jsonString(stored.publishedAt)),\"version\":\(stored.version)}".utf8)
        return CachedLook(version: stored.version, body: body, etag: "\"v\(stored.version)-\(fnv1a64Hex(body))\"")
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
