import LookResolver
import Strings
import Synchronization

/// One cached SDK fetch response: the exact body bytes and their ETag for one app version and language, and the
/// 200 and 304 as wire bytes built once per fill, so that a cache hit is written without building anything. (The
/// one place a service holds HTTP bytes: the hot path's speed depends on it; docs/design.md.) It also keeps the
/// body's pieces (`FetchBody`), which the engine's fetch table keeps instead of the whole body.
struct CachedLook: Sendable {
    /// The 200 and the 304, built once: what the look cache keeps so that a hit builds nothing.
    final class Prepared: Sendable {
        let ok: PreparedResponse
        let notModified: PreparedResponse

        init(_ look: CachedLook) {
            let headers = look.headers
            ok = PreparedResponse(status: 200, headers: headers.ok, body: look.body)
            notModified = PreparedResponse(status: 304, headers: headers.notModified, body: [])
        }
    }

    var appKey: String
    var version: Int
    var locale: LocaleTag
    var body: [UInt8]
    /// Strong ETag: `"v<version>-<16 hex digits of fnv1a64Hex(body)>"`. Equal bytes, equal tag.
    var etag: String
    var shared: FetchBody.Shared
    var language: FetchBody.Language
    /// The prepared 200 and 304; nil for a response built to be answered once and then kept by the engine's fetch
    /// table instead of the look cache.
    var prepared: Prepared?

    /// `prepared`: build the 200 and the 304 now (a response the look cache keeps).
    init(appKey: String, version: Int, locale: LocaleTag, shared: FetchBody.Shared, language: FetchBody.Language, prepared: Bool = true) {
        self.appKey = appKey
        self.version = version
        self.locale = locale
        self.shared = shared
        self.language = language
        body = FetchBody.join(shared, language)
        etag = "\"v\(version)-\(fnv1a64Hex(body))\""
        if prepared { self.prepared = Prepared(self) }
    }

    /// This response's fields: its 200's and its 304's.
    var headers: (ok: [(name: String, value: String)], notModified: [(name: String, value: String)]) {
        Self.headers(etag: etag, language: locale.identifier)
    }

    /// The fields of the 200 and of the 304 for a response tagged `etag` in the language `language` (the one list
    /// the Swift path and the engine's fetch table both send).
    static func headers(etag: String, language: String) -> (ok: [(name: String, value: String)], notModified: [(name: String, value: String)]) {
        let common: [(name: String, value: String)] = [
            ("ETag", etag), ("Content-Language", language), ("Vary", "Accept-Language"),
            // A CDN may serve it for 30 s and revalidate in the background for 60 s more; a
            // publish is therefore visible everywhere within 90 s.
            ("Cache-Control", "public, max-age=30, stale-while-revalidate=60"),
        ]
        return ([("Content-Type", "application/json; charset=utf-8")] + common, common)
    }
}

/// What every language of one app version shares: the response body's shared pieces and the texts a language
/// localizes. Built once per app version (decoding, resolving and encoding are the expensive part of a miss); the
/// resolved look itself is not kept, only what a language's response still needs of it.
struct SharedLook: Sendable {
    var version: Int
    /// The resolved look's reply expectation and topics (what `texts` localizes per language).
    var replyExpectation: LocalizedText
    var topics: [Topic]
    /// The body's pieces every language shares (the app key, the stored layer, the encoded look, the publication
    /// time and the version).
    var body: FetchBody.Shared

    init(appKey: String, stored: StoredVersion, resolved: ResolvedLook) {
        version = stored.version
        replyExpectation = resolved.replyExpectation.value
        topics = resolved.topics.value
        body = FetchBody.shared(appKey: appKey, layer: stored.layer, lookJSON: resolved.jsonBytes(), publishedAt: stored.publishedAt,
                                version: stored.version)
    }

    /// What it counts against the cache's capacity, in bytes: its bytes and a fixed estimate per topic.
    var cost: Int {
        body.bytes.count + 256 + 256 * topics.count
    }
}

/// The look cache: per app, the `SharedLook` stored once, and per (app, language) only the `CachedLook`
/// built from it — so an app's memory grows by one response per language served, not by the whole look.
///
/// Bounded: at most `capacityBytes` (bodies, layers and encoded looks plus a fixed overhead per entry), of which
/// shared parts take at most `sharedBytes` (two thirds) and responses the rest, so a spread of languages over
/// many apps cannot push out the shared parts that make each new language cheap. Within each part, entries are
/// evicted by CLOCK (second chance: an entry read since the hand last passed survives one more turn), so hot
/// looks stay while cold ones go.
///
/// Coherence: `invalidate(appKey:)` drops one app (a publish here, or a notification from another replica),
/// `invalidateAll()` drops everything (the change feed was lost). A fill takes a `FillTicket` before reading
/// the store and is kept only if no invalidation of its app (or of everything) happened since, and its version
/// is not below the app's known floor — so a fetch that raced a publish never leaves an old look behind.
/// Thread-safe: one short lock per operation.
final class LookCache: Sendable {
    /// Taken before reading the store for a fill; see the type's note.
    struct FillTicket: Sendable {
        fileprivate var epoch: Int
        fileprivate var appEpoch: Int
    }

    private enum Key: Hashable {
        case shared(String)
        case language(String, LocaleTag)

        var isShared: Bool {
            if case .shared = self { return true }
            return false
        }
    }

    private enum Value {
        case shared(SharedLook)
        case language(CachedLook)
    }

    private struct Slot {
        var key: Key
        var value: Value
        var cost: Int
        var referenced: Bool
    }

    /// One CLOCK ring: the slots of one kind of entry (shared parts, or responses) and their bytes.
    private struct Clock {
        var slots: [Slot?] = []
        var free: [Int] = []
        var hand = 0
        var bytes = 0

        mutating func remove(at position: Int) {
            bytes -= slots[position]?.cost ?? 0
            slots[position] = nil
            free.append(position)
        }

        /// The key of the first entry the hand finds unreferenced (clearing the bits it passes); the ring must not be
        /// empty. Reads the slots in place: nothing is copied but the key.
        mutating func victim() -> Key {
            while true {
                if hand >= slots.count { hand = 0 }
                let position = hand
                hand += 1
                switch slots[position]?.referenced {
                case true?: slots[position]?.referenced = false
                case false?: if let key = slots[position]?.key { return key }
                case nil: continue
                }
            }
        }

        mutating func add(_ slot: Slot) -> Int {
            bytes += slot.cost
            if let position = free.popLast() {
                slots[position] = slot
                return position
            }
            slots.append(slot)
            return slots.count - 1
        }
    }

    private struct State {
        /// Each key's position in its kind's ring.
        var index: [Key: Int] = [:]
        var shared = Clock()
        var languages = Clock()
        var epoch = 0
        var appEpochs: [String: Int] = [:]
        var floors: [String: Int] = [:]

        var bytes: Int { shared.bytes + languages.bytes }

        mutating func remove(_ key: Key) {
            guard let position = index.removeValue(forKey: key) else { return }
            if key.isShared { shared.remove(at: position) } else { languages.remove(at: position) }
        }

        /// Inserts, evicting entries of the same kind (by CLOCK) while that kind would hold more than `capacity` bytes.
        mutating func insert(_ key: Key, _ value: Value, cost: Int, capacity: Int) {
            remove(key)
            let isShared = key.isShared
            while true {
                let held = isShared ? shared.bytes : languages.bytes
                guard held > 0, held + cost > capacity else { break }
                remove(isShared ? shared.victim() : languages.victim())
            }
            let slot = Slot(key: key, value: value, cost: cost, referenced: false)
            index[key] = isShared ? shared.add(slot) : languages.add(slot)
        }

        func accepts(_ ticket: FillTicket, appKey: String, version: Int) -> Bool {
            ticket.epoch == epoch && ticket.appEpoch == appEpochs[appKey, default: 0] && version >= floors[appKey, default: 0]
        }

        mutating func read(_ key: Key) -> Value? {
            guard let position = index[key] else { return nil }
            if key.isShared {
                shared.slots[position]?.referenced = true
                return shared.slots[position]?.value
            }
            languages.slots[position]?.referenced = true
            return languages.slots[position]?.value
        }
    }

    /// Fixed bookkeeping estimate per entry, in bytes.
    static let entryOverhead = 160

    /// What one language's entry counts against the capacity: the body twice (the Swift bytes and the prepared 200's
    /// wire bytes), the language's pieces, the two prepared heads (about 300 bytes each), the tag, the key and the bookkeeping.
    static func cost(of look: CachedLook, appKey: String) -> Int {
        2 * look.body.count + look.language.bytes.count + 600 + look.etag.utf8.count + appKey.utf8.count + entryOverhead
    }

    /// The bound, in bytes (0: nothing is kept).
    let capacityBytes: Int
    /// The most of `capacityBytes` that shared parts take (two thirds); responses take the rest.
    let sharedBytes: Int
    private let state = Mutex(State())

    /// The engine's table of cached fetches: every invalidation here drops its entries too, before returning.
    let fetchTable: EngineFetchTable?

    init(capacityBytes: Int, fetchTable: EngineFetchTable? = nil) {
        self.capacityBytes = capacityBytes
        self.fetchTable = fetchTable
        sharedBytes = capacityBytes / 3 * 2
    }

    /// The cached response for `appKey` in `locale`, or nil.
    func look(appKey: String, locale: LocaleTag) -> CachedLook? {
        state.withLock { state in
            guard case .language(let look)? = state.read(.language(appKey, locale)) else { return nil }
            return look
        }
    }

    /// The app's shared part, or nil.
    func shared(appKey: String) -> SharedLook? {
        state.withLock { state in
            guard case .shared(let shared)? = state.read(.shared(appKey)) else { return nil }
            return shared
        }
    }

    /// Take before reading the store for a fill.
    func ticket(appKey: String) -> FillTicket {
        state.withLock { FillTicket(epoch: $0.epoch, appEpoch: $0.appEpochs[appKey, default: 0]) }
    }

    /// Keeps a response, unless an invalidation happened since `ticket` or it is larger than the whole cache.
    func keep(_ look: CachedLook, appKey: String, locale: LocaleTag, ticket: FillTicket) {
        let cost = Self.cost(of: look, appKey: appKey)
        let capacity = capacityBytes - sharedBytes
        guard cost <= capacity else { return }
        state.withLock { state in
            guard state.accepts(ticket, appKey: appKey, version: look.version) else { return }
            state.insert(.language(appKey, locale), .language(look), cost: cost, capacity: capacity)
        }
    }

    /// Keeps an app's shared part, under the same conditions as `keep`.
    func keep(_ shared: SharedLook, appKey: String, ticket: FillTicket) {
        let cost = shared.cost + appKey.utf8.count + Self.entryOverhead
        guard cost <= sharedBytes else { return }
        state.withLock { state in
            guard state.accepts(ticket, appKey: appKey, version: shared.version) else { return }
            state.insert(.shared(appKey), .shared(shared), cost: cost, capacity: sharedBytes)
        }
    }

    /// Drops everything cached for `appKey`, and refuses fills in flight for it. `atLeast`: a version known
    /// to be published (a local publish); fills of older versions are refused from now on.
    func invalidate(appKey: String, atLeast version: Int? = nil) {
        state.withLock { state in
            state.appEpochs[appKey, default: 0] += 1
            if let version { state.floors[appKey] = max(state.floors[appKey, default: 0], version) }
            state.remove(.shared(appKey))
            for locale in LocaleTag.allIncludingPseudo { state.remove(.language(appKey, locale)) }
        }
        fetchTable?.invalidate(appKey: appKey)
    }

    /// Drops every cached look and refuses every fill in flight (the change feed was lost and is back).
    func invalidateAll() {
        state.withLock { state in
            let epoch = state.epoch + 1
            let appEpochs = state.appEpochs
            let floors = state.floors
            state = State()
            state.epoch = epoch
            state.appEpochs = appEpochs
            state.floors = floors
        }
        fetchTable?.invalidate(appKey: nil)
    }

    /// Entries (shared parts and responses) and their bytes, for tests and metrics.
    var usage: (entries: Int, bytes: Int) {
        state.withLock { ($0.index.count, $0.bytes) }
    }
}
