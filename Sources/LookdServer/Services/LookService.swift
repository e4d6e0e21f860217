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

    /// The locales whose own identifier negotiates to themselves: the languages an app's first fetch fills the engine's
    /// response cache with at once.
    private let selfNamed: [LocaleTag]

    /// Where the engine's response cache may keep a fetch's answer (its language came from the request's target
    /// alone, so no request field can change it): the request's target, the cache label of its route, and the target
    /// asking for another language the same way.
    struct CacheFill: Sendable {
        var target: String
        var label: Int
        var targetOf: @Sendable (LocaleTag) -> String
    }

    /// Called after every publish here and every change the store reports from other processes (the change feed's
    /// waiters and the webhook deliverer wake on it).
    let onChange: @Sendable () -> Void

    /// Builds the service and subscribes the cache to the store's change feed.
    /// `responseCache`: the engine's response cache, purged with the look cache (nil: none); its capacity is taken
    /// from `limits.cacheBytes`, and the look cache has the rest.
    init(store: any LookStore, metrics: Metrics, limits: Limits, localizer: Localizer, responseCache: EngineResponseCache? = nil,
         onChange: @escaping @Sendable () -> Void = {}) {
        self.onChange = onChange
        self.store = ServiceStore(store, metrics: metrics)
        self.localizer = localizer
        self.metrics = metrics
        self.limits = limits
        selfNamed = LocaleTag.all.filter { localizer.negotiate(language: $0.identifier, acceptLanguage: nil) == $0 }
        let cache = LookCache(capacityBytes: max(0, limits.cacheBytes - (responseCache?.capacityBytes ?? 0)), responseCache: responseCache)
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
    /// read, no resolve). nil when the app's shared part is not cached. `fill`: the answer depends on the request's
    /// target alone, so the engine's response cache, when there is one, keeps it (see `fillResponseCache`) and this
    /// cache does not keep a second copy. `encode`: compute the response's br and gzip forms first (`LookEncodings`:
    /// milliseconds, so only on a worker), so that the engine's copy holds them too. Without `encode` it never reads the
    /// store nor compresses, so the event loop may call it. Thread-safe.
    func fromMemory(appKey: String, locale: LocaleTag, fill: CacheFill? = nil, encode: Bool = false) -> CachedLook? {
        // Read before the look cache, so a fill races no purge (EngineResponseCache).
        let generation = fill != nil ? cache.responseCache?.generation : nil
        if let hit = cached(appKey: appKey, locale: locale) {
            if encode { hit.encodings.compute(for: hit) }
            if let generation, let fill { fillResponseCache(hit, shared: nil, fill: fill, generation: generation, others: false) }
            return hit
        }
        let ticket = cache.ticket(appKey: appKey)
        guard let shared = cache.shared(appKey: appKey) else { return nil }
        metrics.cacheMisses.add(1, ordering: .relaxed)
        let built = keep(build(appKey: appKey, locale: locale, shared, forResponseCache: generation != nil), ticket: ticket)
        if encode { built.encodings.compute(for: built) }
        if let generation, let fill { fillResponseCache(built, shared: shared, fill: fill, generation: generation, others: false) }
        return built
    }

    /// The SDK fetch response for `appKey` (already validated) in `locale` (`fill` and `encode` as for `fromMemory`).
    /// Throws `LookServiceError.appUnknown` when the app was never published, `StoreUnavailableError`.
    func fetch(appKey: String, locale: LocaleTag, fill: CacheFill? = nil, encode: Bool = false) throws -> CachedLook {
        if let found = fromMemory(appKey: appKey, locale: locale, fill: fill, encode: encode) { return found }
        metrics.cacheMisses.add(1, ordering: .relaxed)
        let generation = fill != nil ? cache.responseCache?.generation : nil
        let ticket = cache.ticket(appKey: appKey)
        guard let stored = try store.call({ try $0.current(appKey: appKey) }) else { throw LookServiceError.appUnknown }
        let shared = try share(stored, appKey: appKey)
        cache.keep(shared, appKey: appKey, ticket: ticket)
        let built = keep(build(appKey: appKey, locale: locale, shared, forResponseCache: generation != nil), ticket: ticket)
        if encode { built.encodings.compute(for: built) }
        if let generation, let fill { fillResponseCache(built, shared: shared, fill: fill, generation: generation, others: true) }
        return built
    }

    /// Keeps a built response in the look cache, unless it was built for the engine's response cache.
    private func keep(_ look: CachedLook, ticket: LookCache.FillTicket) -> CachedLook {
        if look.heldByLookCache { cache.keep(look, appKey: look.appKey, locale: look.locale, ticket: ticket) }
        return look
    }

    /// Puts `look` into the engine's response cache under `fill.target`, tagged with its app key; its 200's body is
    /// composed from the version's shared bytes (referenced, not copied) and the language's own. With `others` (the
    /// app version's shared part was just built: its first fetch) and room in the cache for the whole app (estimated
    /// from this language), every other self-named language is built from `shared` and put too (about 50 builds of
    /// microseconds each, once per app version), so that their first requests are the engine's as well — in identity
    /// only: a request for another coding then computes it once (on a worker) and puts the entry again.
    private func fillResponseCache(_ look: CachedLook, shared: SharedLook?, fill: CacheFill, generation: UInt64, others: Bool) {
        guard let responseCache = cache.responseCache else { return }
        let wire = shared.flatMap { $0.version == look.version ? $0.wire : nil } ?? EngineBytes(look.shared.bytes)
        guard responseCache.put(look, wire: wire, target: fill.target, label: fill.label, generation: generation) else { return }
        cache.noteResponseCacheFill(appKey: look.appKey, version: look.version)
        guard others, let shared else { return }
        let each = responseCache.usage.bytes / max(1, responseCache.usage.entries)
        guard responseCache.usage.bytes + selfNamed.count * max(each, 1_024) <= responseCache.capacityBytes else { return }
        for locale in selfNamed where fill.targetOf(locale) != fill.target {
            let built = build(appKey: look.appKey, locale: locale, shared, forResponseCache: true)
            guard responseCache.put(built, wire: wire, target: fill.targetOf(locale), label: fill.label, generation: generation) else { return }
        }
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
        return SharedLook(appKey: appKey, stored: stored, resolved: look(LookLayers(dashboard: layer)),
                          engineCopy: cache.responseCache != nil)
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
    func build(appKey: String, locale: LocaleTag, _ shared: SharedLook, forResponseCache: Bool) -> CachedLook {
        let chain = localizer.fallbackChain(for: locale).map(\.identifier)
        func localized(_ text: LocalizedText) -> String {
            if case .catalog(let key, let english) = text {
                return catalogText(key: key, english: english, locale: locale)
            }
            return text.text(preferring: chain)
        }
        let language = FetchBody.language(direction: Localizer.direction(of: locale).rawValue, locale: locale.identifier) { writer in
            writer.beginObject()
            writer.member("replyExpectation", localized(shared.replyExpectation))
            writer.key("topics")
            writer.beginArray()
            for topic in shared.topics {
                writer.beginObject()
                writer.member("id", topic.id)
                writer.member("label", localized(topic.label))
                writer.key("prefill")
                if let prefill = topic.prefill { writer.string(localized(prefill)) } else { writer.null() }
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        }
        return CachedLook(appKey: appKey, version: shared.version, locale: locale, shared: shared.body, language: language,
                          heldByLookCache: !forResponseCache)
    }
}
