import LookResolver
import StableJSON
import Strings
import Synchronization

/// The app-look service: publishes dashboard layers to the store and answers the SDK's fetch from the
/// `LookCache` (the exact response per app and language, the resolved look once per app).
///
/// Coherence: a publish here invalidates the app at once; the store's change feed (other replicas' publishes,
/// or "everything is stale" after the feed was lost) invalidates through the same API. While the store is
/// unreachable, cached looks are still served; a miss throws StoreError (503).
final class LookService: Sendable {
    let store: any LookStore
    /// One palette memo for the process: the previews and resolves a daemon answers repeat the same few accents.
    private let resolver = Resolver(paletteCache: PaletteCache())
    private let metrics: Metrics
    private let limits: Limits
    let cache: LookCache
    private let localizer: Localizer
    /// Built-in catalog texts as formatted per (key, locale): a topic preset's label is the same for every app, so
    /// each new language of an app reads it here instead of formatting it again. Bounded by the catalog's keys
    /// times the locales.
    private let catalogTexts = Mutex<[CatalogText: String]>([:])

    private struct CatalogText: Hashable {
        var key: String
        var locale: LocaleTag
    }

    /// Builds the service and subscribes the cache to the store's change feed.
    /// `fetchTable`: the engine's table of cached fetches, invalidated with the cache (nil: none); its capacity is taken
    /// from `limits.cacheBytes`, and the look cache has the rest.
    init(store: any LookStore, metrics: Metrics, limits: Limits, localizer: Localizer, fetchTable: EngineFetchTable? = nil) {
        self.store = store
        self.localizer = localizer
        self.metrics = metrics
        self.limits = limits
        let cache = LookCache(capacityBytes: max(0, limits.cacheBytes - (fetchTable?.capacityBytes ?? 0)), fetchTable: fetchTable)
        self.cache = cache
        store.watchChanges { change in
            switch change {
            case .app(let appKey): cache.invalidate(appKey: appKey)
            case .all: cache.invalidateAll()
            }
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
    /// read, no resolve). nil when the app's shared part is not cached. `forFetchTable`: the answer depends on the
    /// request's target alone (its language came from `?lang=` alone), so the engine's fetch table, when the cache
    /// has one, keeps it (see `fillFetchTable`) and this cache does not keep a second copy. Never reads the store, so
    /// the event loop may call it. Thread-safe.
    func fromMemory(appKey: String, locale: LocaleTag, forFetchTable: Bool = false) -> CachedLook? {
        // Read before the look cache, so a fill races no invalidation (EngineFetchTable).
        let generation = forFetchTable ? cache.fetchTable?.generation : nil
        if let hit = cached(appKey: appKey, locale: locale) {
            if let generation { fillFetchTable(hit, shared: nil, generation: generation) }
            return hit
        }
        let ticket = cache.ticket(appKey: appKey)
        guard let shared = cache.shared(appKey: appKey) else { return nil }
        metrics.cacheMisses.add(1, ordering: .relaxed)
        let built = keep(build(appKey: appKey, locale: locale, shared, forFetchTable: forFetchTable), ticket: ticket)
        if let generation { fillFetchTable(built, shared: shared, generation: generation) }
        return built
    }

    /// The SDK fetch response for `appKey` (already validated) in `locale` (`forFetchTable` as for `fromMemory`).
    /// Throws `LookServiceError.appUnknown` when the app was never published, StoreError when the store fails.
    func fetch(appKey: String, locale: LocaleTag, forFetchTable: Bool = false) throws -> CachedLook {
        if let found = fromMemory(appKey: appKey, locale: locale, forFetchTable: forFetchTable) { return found }
        metrics.cacheMisses.add(1, ordering: .relaxed)
        let generation = forFetchTable ? cache.fetchTable?.generation : nil
        let ticket = cache.ticket(appKey: appKey)
        guard let stored = try store.current(appKey: appKey) else { throw LookServiceError.appUnknown }
        let shared = try share(stored, appKey: appKey)
        cache.keep(shared, appKey: appKey, ticket: ticket)
        let built = keep(build(appKey: appKey, locale: locale, shared, forFetchTable: forFetchTable), ticket: ticket)
        if let generation { fillFetchTable(built, shared: shared, generation: generation) }
        return built
    }

    /// Keeps a built response in the look cache, unless it was built for the engine's fetch table.
    private func keep(_ look: CachedLook, ticket: LookCache.FillTicket) -> CachedLook {
        if look.prepared != nil { cache.keep(look, appKey: look.appKey, locale: look.locale, ticket: ticket) }
        return look
    }

    /// Fills the engine's fetch table with `look`'s language. When that language is the app's first in the table and
    /// the table has room for the whole app (its shared pieces and every one of the 50 languages' own, estimated from
    /// this one's), the other languages are built from `shared` and filled too (about 50 builds of microseconds
    /// each, once per app version), so that their first requests are the engine's as well. Once the table is full,
    /// languages are filled one at a time, as requested.
    private func fillFetchTable(_ look: CachedLook, shared: SharedLook?, generation: UInt64) {
        guard let table = cache.fetchTable, table.fill(generation: generation, look: look) == .firstOfApp, let shared else { return }
        let others = table.languages.filter { $0 != look.locale && LocaleTag.all.contains($0) }
        let estimate = look.shared.bytes.count + (others.count + 1) * (look.language.bytes.count * 5 / 4 + look.etag.utf8.count + 32)
        guard table.usage.bytes + estimate <= table.capacityBytes else { return }
        for locale in others {
            guard table.fill(generation: generation, look: build(appKey: look.appKey, locale: locale, shared, forFetchTable: true)) != .refused else { return }
        }
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
        cache.invalidate(appKey: appKey, atLeast: stored.version)
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
            version.writeMembers(into: &writer, layer: try Self.stored(version.layer))
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

    /// The part of a response every language shares: the layer read and resolved, the look encoded, the body's shared
    /// pieces (`FetchBody`).
    private func share(_ stored: StoredVersion, appKey: String) throws -> SharedLook {
        let layer = try Self.stored(stored.layer)
        return SharedLook(appKey: appKey, stored: stored, resolved: resolver.resolve(LookLayers(dashboard: layer)))
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
    private func build(appKey: String, locale: LocaleTag, _ shared: SharedLook, forFetchTable: Bool) -> CachedLook {
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
                          prepared: !(forFetchTable && cache.fetchTable != nil))
    }
}

/// A 64-bit FNV-1a-style hash as 16 lower-case hex digits: FNV-1a's step (xor, multiply by the 64-bit FNV prime)
/// over 8-byte little-endian words and then over the remaining bytes, the length mixed in, and a final
/// xor-shift-multiply so that every input bit reaches every digit. Eight bytes a step instead of one: a
/// response's tag is computed on every cache fill. Not cryptographic: it tells byte strings apart for ETags.
func fnv1a64Hex(_ bytes: [UInt8]) -> String {
    let prime: UInt64 = 0x0000_0100_0000_01b3
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset + 8 <= raw.count {
            hash = (hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) &* prime
            offset += 8
        }
        while offset < raw.count {
            hash = (hash ^ UInt64(raw[offset])) &* prime
            offset += 1
        }
    }
    hash ^= hash >> 32
    hash = hash &* 0xd6e8_feb8_6659_fd93
    hash ^= hash >> 32
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
