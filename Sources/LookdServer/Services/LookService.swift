import LookResolver
import StableJSON
import Strings
import Locking

/// The app-look service: publishes dashboard layers to the store and answers the SDK's fetch from the
/// `LookCache` (the exact response per app and language, the resolved look once per app).
///
/// Coherence: a publish here invalidates the app at once; the store's change feed (other replicas' publishes)
/// invalidates through the same API. When the feed is lost the cache is marked stale but kept, and when it is
/// back each cached app is revalidated by version (`CacheRevalidation`). While the store is unreachable, cached
/// looks are still served; a miss throws `StoreUnavailableError`.
///
/// Errors: every method that reads or writes the store throws `StoreUnavailableError` when the store fails (a publish:
/// `PublishOutcomeUnknownError` when its outcome could not be learnt), never the store's own errors (`ServiceStore`).
final class LookService: Sendable {
    let store: ServiceStore
    /// One palette memo for the process: the previews and resolves a daemon answers repeat the same few accents.
    private let resolver = Resolver(paletteCache: PaletteCache())
    let metrics: Metrics
    private let limits: Limits
    let cache: LookCache
    private let localizer: Localizer
    /// Built-in catalog texts as formatted per (key, locale): a topic preset's label is the same for every app, so
    /// each new language of an app reads it here instead of formatting it again. Bounded by the catalog's keys
    /// times the locales.
    private let catalogTexts = LockedValue<[CatalogText: String]>([:])

    private struct CatalogText: Hashable {
        var key: String
        var locale: LocaleTag
    }

    /// Called after every publish here and every change the store reports from other processes (the change feed's
    /// waiters and the webhook deliverer wake on it).
    let onChange: @Sendable () -> Void

    /// Builds the service and subscribes the cache to the store's change feed.
    /// `derived`: what is derived from the fetch responses outside the service (the HTTP edge's response cache), kept
    /// coherent by the look cache (nil: none); its capacity is taken from `limits.cacheBytes`, and the look cache has
    /// the rest, of which `limits.lookSharedBytes` for shared parts.
    init(store: any LookStore, metrics: Metrics, limits: Limits, localizer: Localizer, derived: (any DerivedLookCache)? = nil,
         onChange: @escaping @Sendable () -> Void = {}) {
        self.onChange = onChange
        self.store = ServiceStore(store, metrics: metrics)
        self.localizer = localizer
        self.metrics = metrics
        self.limits = limits
        let capacity = max(0, limits.cacheBytes - (derived?.capacityBytes ?? 0))
        let cache = LookCache(capacityBytes: capacity, sharedBytes: derived == nil ? nil : min(capacity, limits.lookSharedBytes), derived: derived)
        self.cache = cache
        store.watchChanges { change in
            switch change {
            case .app(let appKey, let version?): cache.invalidate(appKey: appKey, olderThan: version)
            case .app(let appKey, nil): cache.invalidate(appKey: appKey)
            case .lost: cache.markStale()
            case .all: CacheRevalidation.run(cache: cache, store: store, metrics: metrics)
            }
            onChange()
        }
    }

    /// The cached SDK fetch response for `appKey` in `locale`, or nil when it is not cached (never reads the store:
    /// what the event loop may call; a miss is fetched on a worker).
    func cached(appKey: String, locale: LocaleTag) -> CachedLook? {
        guard let hit = cache.look(appKey: appKey, locale: locale) else { return nil }
        metrics.cacheHits.add(1, ordering: .relaxed)
        return hit
    }

    /// The SDK fetch response for `appKey` in `locale` from memory alone: the cached response, or one built from the
    /// app's cached shared part — the per-language part only (texts, JSON assembly, ETag: microseconds, no store
    /// read, no resolve). nil when the app's shared part is not cached. `keep`: false when the caller keeps the answer
    /// itself (the HTTP edge's response cache), so that the look cache does not keep a second copy of a new one (a
    /// cached one is returned all the same). Never reads the store, so the event loop may call it. Thread-safe.
    func fromMemory(appKey: String, locale: LocaleTag, keep: Bool = true) -> CachedLook? {
        let shared: SharedLook, ticket: LookCache.FillTicket
        switch cache.lookup(appKey: appKey, locale: locale) {
        case .look(let hit):
            metrics.cacheHits.add(1, ordering: .relaxed)
            return hit
        case .shared(let found, let taken): (shared, ticket) = (found, taken)
        case .none: return nil
        }
        metrics.cacheMisses.add(1, ordering: .relaxed)
        let built = build(appKey: appKey, locale: locale, shared)
        if keep { cache.keep(built, appKey: appKey, locale: locale, ticket: ticket) }
        return built
    }

    /// The SDK fetch response for `appKey` (already validated) in `locale` (`keep` as for `fromMemory`). Throws
    /// `LookServiceError.appUnknown` when the app was never published, `StoreUnavailableError`.
    func fetch(appKey: String, locale: LocaleTag, keep: Bool = true) throws -> CachedLook {
        if let found = fromMemory(appKey: appKey, locale: locale, keep: keep) { return found }
        metrics.cacheMisses.add(1, ordering: .relaxed)
        let ticket = cache.ticket(appKey: appKey)
        guard let stored = try store.call({ try $0.current(appKey: appKey) }) else { throw LookServiceError.appUnknown }
        let shared = try share(stored, appKey: appKey)
        cache.keep(shared, appKey: appKey, ticket: ticket)
        let built = build(appKey: appKey, locale: locale, shared)
        if keep { cache.keep(built, appKey: appKey, locale: locale, ticket: ticket) }
        return built
    }

    /// The responses of `version` of `appKey` in each of `locales` (in their order), built from the app's cached shared part (about 50
    /// builds of microseconds each for every language), neither kept nor counted as fetches: for a cache of the
    /// caller's that takes an app's every language at once. Empty when the cached shared part is not of `version` (or
    /// there is none). Never reads the store. Thread-safe.
    func languages(appKey: String, version: Int, _ locales: [LocaleTag]) -> [CachedLook] {
        guard let shared = cache.shared(appKey: appKey), shared.version == version else { return [] }
        return locales.map { build(appKey: appKey, locale: $0, shared) }
    }

    /// The responses of `version` of `appKey` in each of `locales` (in their order), for a cache of the caller's filled
    /// before any fetch asks (the HTTP edge's, after a publish): as `languages`, but when the app's shared part is not
    /// cached it is read from the store and kept first, as a fetch's miss keeps it (under a ticket taken before the
    /// read; not counted as a fetch). Empty when the app's current version is not `version` (a newer publish came
    /// first) or the shared part could not be kept (an invalidation raced the read; the cache has no room). Throws
    /// `StoreUnavailableError`. Thread-safe.
    func prepare(appKey: String, version: Int, _ locales: [LocaleTag]) throws -> [CachedLook] {
        if cache.sharedVersion(appKey: appKey) != version {
            let ticket = cache.ticket(appKey: appKey)
            guard let stored = try store.call({ try $0.current(appKey: appKey) }), stored.version == version else { return [] }
            cache.keep(try share(stored, appKey: appKey), appKey: appKey, ticket: ticket)
        }
        return languages(appKey: appKey, version: version, locales)
    }

    /// The current version of each published app whose key sorts after `after` (nil: from the first), in key order,
    /// among the next `limit` (≥ 1) keys the store lists, and the last key listed, where the next page starts (nil: no
    /// more). Reads the store (two queries). Throws `StoreUnavailableError`. Thread-safe.
    func currentVersions(after: String?, limit: Int) throws -> (versions: [(appKey: String, version: Int)], next: String?) {
        let limit = max(1, limit)
        let keys = try store.call { try $0.appKeys(after: after, limit: limit) }
        guard !keys.isEmpty else { return ([], nil) }
        let versions = try store.call { try $0.currentVersions(appKeys: keys) }
        return (keys.compactMap { key in versions[key].map { (key, $0) } }, keys.count < limit ? nil : keys.last)
    }

    /// Whether the look cache still holds the shared part of `version` of `appKey` (not marked read): every
    /// invalidation of the app drops it before its derived cache is dropped, so a caller that read its own cache's purge
    /// count first and then finds it here may put what it built from it under that count. Thread-safe.
    func holds(appKey: String, version: Int) -> Bool {
        cache.sharedVersion(appKey: appKey) == version
    }

    /// Reads, validates and publishes a dashboard layer (the request body's bytes) as the app's next version,
    /// after COMMIT. Returns the stored version and the layer's warnings. Throws `LookServiceError`:
    /// `.layerMalformed` (not a JSON object), `.limitExceeded` (too many keys or topics), `.layerInvalid`
    /// (diagnostics with errors; nothing stored), `.versionConflict` (the precondition does not hold);
    /// `StoreUnavailableError`.
    func publish(appKey: String, body: [UInt8], precondition: PublishPrecondition?) throws -> (StoredVersion, [Diagnostic]) {
        let (layer, diagnostics) = try validatedLayer(body)
        let stored = try publish(appKey: appKey, layer: layer, expected: try expectation(precondition, appKey: appKey))
        return (stored, diagnostics)
    }

    /// A dashboard layer (a request body's bytes) read strictly, bounded and validated as a publish requires, and its
    /// warnings (bounded). Throws `LookServiceError.layerMalformed`, `.limitExceeded`, `.layerInvalid` (errors).
    func validatedLayer(_ body: [UInt8]) throws -> (JSONValue, [Diagnostic]) {
        let layer = try readLayer(body)
        try checkBounds(layer, field: "the layer")
        let diagnostics = validateLayer(layer, as: .dashboard)
        if diagnostics.contains(where: { $0.severity == .error }) {
            throw LookServiceError.layerInvalid(Diagnostic.bounded(diagnostics))
        }
        return (layer, Diagnostic.bounded(diagnostics))
    }

    /// Republishes version `to` as a new version. Throws `LookServiceError.appUnknown` / `.versionUnknown` /
    /// `.versionConflict`, `StoreUnavailableError`, `PublishOutcomeUnknownError`.
    func rollback(appKey: String, to version: Int, precondition: PublishPrecondition?) throws -> StoredVersion {
        guard let old = try store.call({ try $0.version(appKey: appKey, version) }) else {
            if try store.call({ try $0.current(appKey: appKey) }) == nil { throw LookServiceError.appUnknown }
            throw LookServiceError.versionUnknown(version)
        }
        let layer = try Self.stored(old.layer)
        return try publish(appKey: appKey, layer: layer, expected: try expectation(precondition, appKey: appKey), rolledBackFrom: version)
    }

    private func publish(appKey: String, layer: JSONValue, expected: PublishExpectation?, rolledBackFrom: Int? = nil) throws -> StoredVersion {
        let text = JSONWriter.string(layer)
        let stored: StoredVersion
        do {
            stored = try store.call { try $0.publish(appKey: appKey, layer: text, expected: expected, rolledBackFrom: rolledBackFrom) }
        } catch let conflict as PublishConflict {
            throw Self.conflict(current: conflict.current)
        } catch let unknown as PublishOutcomeUnknownError {
            cache.invalidate(appKey: appKey)   // the version may have landed
            throw unknown
        }
        metrics.publishes.add(1, ordering: .relaxed)
        cache.invalidate(appKey: appKey, atLeast: stored.version)
        onChange()
        return stored
    }

    /// The store's expectation for a precondition. One named version is checked by the store inside the publish's
    /// transaction; for several (or none of ours) the current version is read first, and the store still checks
    /// it atomically.
    func expectation(_ precondition: PublishPrecondition?, appKey: String) throws -> PublishExpectation? {
        switch precondition {
        case nil: return nil
        case .newApp?: return .newApp
        case .anyVersion(let versions)?:
            if versions.count == 1, let version = versions.first { return .version(version) }
            let current = try store.call { try $0.current(appKey: appKey)?.version }
            if let current, versions.contains(current) { return .version(current) }
            throw Self.conflict(current: current)
        }
    }

    static func conflict(current: Int?) -> LookServiceError {
        guard let current else {
            return .versionConflict(current: nil, reason: "the app has no published look yet; publish it with If-None-Match: *")
        }
        return .versionConflict(current: current, reason: "the app's current version is \(current); fetch it and retry with If-Match: \"v\(current)\"")
    }

    /// Resolves layers (the request body's bytes: `{"dashboard", "code", "inferred"}`) over the defaults, nothing
    /// stored. Returns the resolved look's stable JSON bytes, with at most `Diagnostic.answerLimit` diagnostics
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

    /// The resolved look of layers (nothing stored), its diagnostics bounded as every answer bounds them
    /// (`Diagnostic.bounded`, the rule LookClient's merge uses too).
    func look(_ layers: LookLayers) -> ResolvedLook {
        resolver.resolve(layers).bounded
    }

    /// The app's versions, newest first, at most `limit`: `{"appKey", "currentVersion", "versions": [{"etag", "layer",
    /// "publishedAt", "rolledBackFrom", "version"}]}`. Throws `LookServiceError.appUnknown`, `StoreUnavailableError`.
    func history(appKey: String, limit: Int) throws -> [UInt8] {
        let versions = try store.call { try $0.history(appKey: appKey, limit: limit) }
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
            version.writeMembers(into: &writer, layer: try Self.stored(version.layer))
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    /// The app's published dashboard layer. Throws `LookServiceError.appUnknown` when it was never published,
    /// `StoreUnavailableError`.
    func publishedLayer(appKey: String) throws -> JSONValue {
        guard let stored = try store.call({ try $0.current(appKey: appKey) }) else { throw LookServiceError.appUnknown }
        return try Self.stored(stored.layer)
    }

    /// A layer as the store keeps it (written by `JSONWriter`, so always readable).
    static func stored(_ text: String) throws -> JSONValue {
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

    /// The part of a response every language shares: the layer read and resolved, the look encoded, the body's shared
    /// pieces (`FetchBody`).
    private func share(_ stored: StoredVersion, appKey: String) throws -> SharedLook {
        let layer = try Self.stored(stored.layer)
        return SharedLook(appKey: appKey, stored: stored, resolved: look(LookLayers(dashboard: layer)))
    }

    /// The catalog's message `key` in `locale` (`english` when the catalog has none), formatted once per process.
    private func catalogText(key: String, english: String, locale: LocaleTag) -> String {
        let memoKey = CatalogText(key: key, locale: locale)
        if let known = catalogTexts.withLock({ $0[memoKey] }) { return known }
        let text = (try? localizer.format(key: key, locale: locale).text) ?? english
        catalogTexts.withLock { $0[memoKey] = text }
        return text
    }

    /// The response in `locale`: the shared pieces and the language's own — its direction and locale, and `texts`:
    /// the reply expectation and each topic's label and prefill, the team's own translation when it has one for the
    /// locale's fallback chain, the catalog's message for built-in texts. The body's shape is `FetchBody`'s.
    func build(appKey: String, locale: LocaleTag, _ shared: SharedLook) -> CachedLook {
        let chain = localizer.fallbackChain(for: locale).map(\.identifier)
        func localized(_ text: LocalizedText) -> String {
            if case .catalog(let key, let english) = text {
                return catalogText(key: key, english: english, locale: locale)
            }
            return text.text(preferring: chain)
        }
        let language = FetchBody.language(direction: Localizer.direction(of: locale).rawValue, locale: locale.identifier) { writer in
            writer.beginObject()
            writer.member(static: "replyExpectation", localized(shared.replyExpectation))
            writer.key(static: "topics")
            writer.beginArray()
            for topic in shared.topics {
                writer.beginObject()
                writer.member(static: "id", topic.id)
                writer.member(static: "label", localized(topic.label))
                writer.key(static: "prefill")
                if let prefill = topic.prefill { writer.string(localized(prefill)) } else { writer.null() }
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        }
        return CachedLook(appKey: appKey, version: shared.version, locale: locale, shared: shared.body, language: language)
    }
}
