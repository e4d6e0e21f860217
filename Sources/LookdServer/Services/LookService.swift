import LookResolver
import StableJSON
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

        static func cost(_ key: CacheKey, _ look: CachedLook) -> Int { look.body.count + key.appKey.utf8.count + 160 }
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

    /// The SDK fetch response for `appKey` (already validated) in `locale`. Throws `LookServiceError.appUnknown`
    /// when the app was never published, StoreError when the store fails.
    func fetch(appKey: String, locale: LocaleTag) throws -> CachedLook {
        let cacheKey = CacheKey(appKey: appKey, locale: locale)
        if let hit = cache.withLock({ $0.entries[cacheKey] }) {
            metrics.cacheHits.add(1, ordering: .relaxed)
            return hit
        }
        metrics.cacheMisses.add(1, ordering: .relaxed)
        guard let stored = try store.current(appKey: appKey) else { throw LookServiceError.appUnknown }
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

    /// Reads, validates and publishes a dashboard layer (the request body's bytes) as the app's next version,
    /// after COMMIT. Returns the stored version and the layer's warnings. Throws `LookServiceError`:
    /// `.layerMalformed` (not a JSON object), `.limitExceeded` (too many keys or topics), `.layerInvalid`
    /// (diagnostics with errors; nothing stored), `.versionConflict` (the precondition does not hold);
    /// StoreError when the store fails.
    func publish(appKey: String, body: [UInt8], precondition: PublishPrecondition?) throws -> (StoredVersion, [Diagnostic]) {
        let layer = try readLayer(body)
        try checkBounds(layer, field: "the layer")
        let diagnostics = validateLayer(layer, as: .dashboard)
        if diagnostics.contains(where: { $0.severity == .error }) {
            throw LookServiceError.layerInvalid(bounded(diagnostics))
        }
        let stored = try publish(appKey: appKey, layer: layer, expected: try expectation(precondition, appKey: appKey))
        return (stored, bounded(diagnostics))
    }

    /// Republishes version `to` as a new version. Throws `LookServiceError.appUnknown` / `.versionUnknown` /
    /// `.versionConflict`, StoreError.
    func rollback(appKey: String, to version: Int, precondition: PublishPrecondition?) throws -> StoredVersion {
        guard let old = try store.version(appKey: appKey, version) else {
            if try store.current(appKey: appKey) == nil { throw LookServiceError.appUnknown }
            throw LookServiceError.versionUnknown(version)
        }
        let layer = try Self.stored(old.layer)
        return try publish(appKey: appKey, layer: layer, expected: try expectation(precondition, appKey: appKey), rolledBackFrom: version)
    }

    private func publish(appKey: String, layer: JSONValue, expected: PublishExpectation?, rolledBackFrom: Int? = nil) throws -> StoredVersion {
        let text = JSONWriter.string(layer)
        let stored: StoredVersion
        do {
            stored = try store.publish(appKey: appKey, layer: text, expected: expected, rolledBackFrom: rolledBackFrom)
        } catch let conflict as PublishConflict {
            throw Self.conflict(current: conflict.current)
        }
        metrics.publishes.add(1, ordering: .relaxed)
        cache.withLock { cache in
            for locale in LocaleTag.allIncludingPseudo { cache.remove(CacheKey(appKey: appKey, locale: locale)) }
            cache.floors[appKey] = max(cache.floors[appKey, default: 0], stored.version)
        }
        return stored
    }

    /// The store's expectation for a precondition. One named version is checked by the store inside the publish's
    /// transaction; for several (or none of ours) the current version is read first, and the store still checks
    /// it atomically.
    private func expectation(_ precondition: PublishPrecondition?, appKey: String) throws -> PublishExpectation? {
        switch precondition {
        case nil: return nil
        case .newApp?: return .newApp
        case .anyVersion(let versions)?:
            if versions.count == 1, let version = versions.first { return .version(version) }
            let current = try store.current(appKey: appKey)?.version
            if let current, versions.contains(current) { return .version(current) }
            throw Self.conflict(current: current)
        }
    }

    private static func conflict(current: Int?) -> LookServiceError {
        guard let current else {
            return .versionConflict(current: nil, reason: "the app has no published look yet; publish it with If-None-Match: *")
        }
        return .versionConflict(current: current, reason: "the app's current version is \(current); fetch it and retry with If-Match: \"v\(current)\"")
    }

    /// Resolves layers (the request body's bytes: `{"dashboard", "code", "inferred"}`) over the defaults, nothing
    /// stored. Returns the resolved look's stable JSON bytes, with at most `ServiceBounds.diagnostics` diagnostics
    /// (then a `diagnostics_truncated` notice). Throws `LookServiceError.layerMalformed` / `.limitExceeded`.
    func resolve(body: [UInt8]) throws -> [UInt8] {
        look(try layers(body)).jsonBytes()
    }

    /// Reads the layers of a resolve or preview request body. Throws `LookServiceError.layerMalformed` when it is
    /// not a layers object, `.limitExceeded` when a layer is over `ServiceBounds`.
    func layers(_ body: [UInt8]) throws -> LookLayers {
        let layers: LookLayers
        do {
            layers = try LookLayers(json: body, limits: readerLimits)
        } catch let error as LookInputError {
            if let readError = error.readError, [.depthLimit, .stringLimit, .valueLimit].contains(readError.code) {
                throw LookServiceError.limitExceeded("the body is over a limit: \(readError.description)")
            }
            throw LookServiceError.layerMalformed(error.message)
        }
        for layer in LookLayer.inputs {
            if let value = layers[layer] { try checkBounds(value, field: layer.rawValue) }
        }
        return layers
    }

    /// The resolved look of layers (nothing stored), its diagnostics bounded.
    func look(_ layers: LookLayers) -> ResolvedLook {
        var look = resolver.resolve(layers)
        look.diagnostics = bounded(look.diagnostics)
        return look
    }

    /// The app's versions, newest first, at most `limit`: `{"appKey", "currentVersion", "versions": [{"etag", "layer",
    /// "publishedAt", "rolledBackFrom", "version"}]}`. Throws `LookServiceError.appUnknown`, StoreError.
    func history(appKey: String, limit: Int) throws -> [UInt8] {
        let versions = try store.history(appKey: appKey, limit: limit)
        guard let current = versions.first else { throw LookServiceError.appUnknown }
        var writer = JSONWriter(capacity: 512 * versions.count + 128)
        writer.beginObject()
        writer.member("appKey", appKey)
        writer.key("currentVersion")
        writer.number(current.version)
        writer.key("versions")
        writer.beginArray()
        for version in versions {
            writer.beginObject()
            writer.member("etag", "\"v\(version.version)\"")
            writer.key("layer")
            writer.write(try Self.stored(version.layer))
            writer.member("publishedAt", version.publishedAt)
            writer.key("rolledBackFrom")
            if let from = version.rolledBackFrom { writer.number(from) } else { writer.null() }
            writer.key("version")
            writer.number(version.version)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    /// The app's published dashboard layer. Throws `LookServiceError.appUnknown` when it was never published,
    /// StoreError when the store fails.
    func publishedLayer(appKey: String) throws -> JSONValue {
        guard let stored = try store.current(appKey: appKey) else { throw LookServiceError.appUnknown }
        return try Self.stored(stored.layer)
    }

    /// A layer as the store keeps it (written by `JSONWriter`, so always readable).
    private static func stored(_ text: String) throws -> JSONValue {
        try JSONReader.read(Array(text.utf8))
    }

    /// A layer body as a JSON object, read by StableJSON's strict reader: RFC 8259 exactly (UTF-8 without a BOM, no
    /// trailing comma, no duplicate key), numbers kept as sent. Throws `LookServiceError.layerMalformed` naming the
    /// problem and its line and column.
    private func readLayer(_ body: [UInt8]) throws -> JSONValue {
        let layer: JSONValue
        do {
            layer = try JSONReader.read(body, limits: readerLimits)
        } catch let error as JSONReadError {
            if [.depthLimit, .stringLimit, .valueLimit].contains(error.code) {
                throw LookServiceError.limitExceeded("the body is over a limit: \(error.description)")
            }
            throw LookServiceError.layerMalformed("the body is not valid JSON: \(error.description)")
        }
        guard case .object = layer else { throw LookServiceError.layerMalformed("the dashboard layer must be a JSON object") }
        return layer
    }

    /// Refuses a layer with more keys than `ServiceBounds.layerKeys` or more topics than `Limits.maxTopics`: each
    /// costs resolve time and a diagnostic. Throws `LookServiceError.limitExceeded`.
    private func checkBounds(_ layer: JSONValue, field: String) throws {
        guard case .object(let fields) = layer else { return }
        guard fields.count <= ServiceBounds.layerKeys else {
            throw LookServiceError.limitExceeded("\(field) has \(fields.count) keys; at most \(ServiceBounds.layerKeys) are accepted")
        }
        if case .array(let topics)? = fields["topics"], topics.count > limits.maxTopics {
            throw LookServiceError.limitExceeded("the layer has \(topics.count) topics; at most \(limits.maxTopics) are accepted")
        }
    }

    /// The strict reader's bounds for request bodies: `Limits`' depth and string length, `ServiceBounds.jsonValues`.
    private var readerLimits: JSONReader.Limits {
        JSONReader.Limits(maxDepth: limits.maxJSONDepth, maxStringBytes: limits.maxStringBytes, maxValues: ServiceBounds.jsonValues)
    }

    /// At most `ServiceBounds.diagnostics` diagnostics; when more, the first ones and a notice saying how many were left out.
    private func bounded(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard diagnostics.count > ServiceBounds.diagnostics else { return diagnostics }
        let kept = ServiceBounds.diagnostics - 1
        var notice = Diagnostic(layer: diagnostics[kept].layer, field: "", code: .invalidLayer,
                                message: ServiceBounds.omitted(diagnostics.count - kept, of: "diagnostics"))
        notice.code = "diagnostics_truncated"
        notice.severity = .warning
        return Array(diagnostics.prefix(kept)) + [notice]
    }

    /// `{"appKey","dashboard","direction","locale","look","publishedAt","texts","version"}` — keys
    /// sorted, the look's own bytes embedded as the resolver encoded them (so equal looks give equal
    /// bytes). `texts` holds the look's texts in `locale`: the reply expectation and each topic's label
    /// and prefill — the team's own translation when it has one for the locale's fallback chain, the
    /// catalog's message for built-in texts.
    private func build(appKey: String, locale: LocaleTag, _ stored: StoredVersion) throws -> CachedLook {
        let layer = try Self.stored(stored.layer)
        let resolved = resolver.resolve(LookLayers(dashboard: layer))
        let chain = localizer.fallbackChain(for: locale).map(\.identifier)
        func localized(_ text: LocalizedText) -> String {
            if case .catalog(let key, let english) = text {
                return (try? localizer.format(key: key, locale: locale).text) ?? english
            }
            return text.text(preferring: chain)
        }
        var writer = JSONWriter(capacity: stored.layer.utf8.count + 4_096)
        writer.beginObject()
        writer.member("appKey", appKey)
        writer.key("dashboard")
        writer.write(layer)
        writer.member("direction", Localizer.direction(of: locale).rawValue)
        writer.member("locale", locale.identifier)
        writer.key("look")
        resolved.write(to: &writer)
        writer.member("publishedAt", stored.publishedAt)
        writer.key("texts")
        writer.beginObject()
        writer.member("replyExpectation", localized(resolved.replyExpectation.value))
        writer.key("topics")
        writer.beginArray()
        for topic in resolved.topics.value {
            writer.beginObject()
            writer.member("id", topic.id)
            writer.member("label", localized(topic.label))
            writer.key("prefill")
            if let prefill = topic.prefill { writer.string(localized(prefill)) } else { writer.null() }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        writer.key("version")
        writer.number(stored.version)
        writer.endObject()
        let body = writer.bytes
        return CachedLook(version: stored.version, body: body, etag: "\"v\(stored.version)-\(fnv1a64Hex(body))\"")
    }
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
