import LookResolver
import Strings
import Locking

/// One SDK fetch response as domain values: the exact body bytes and their ETag value for one app version and
/// language, with the app key, version and language they are for. It also keeps the body's pieces (`FetchBody`), from
/// which a copy can be composed without repeating what every language shares. It builds no HTTP: the header fields,
/// the compressed bodies and the prepared 200 and 304 are the edge's (`LookResponse`, `PreparedLook`), kept in `edge`
/// once made so that a look cache hit makes nothing.
struct CachedLook: Sendable {
    var appKey: String
    var version: Int
    var locale: LocaleTag
    /// The body's bytes, joined from `shared` and `language` on each use (`FetchBody.join`): a fill builds ~50 languages
    /// whose joined bodies nothing reads (the engine references the pieces), and joining each at build cost ~1,600
    /// instructions and a free of the ~51,500 a fill spent on a language (docs/benchmarks.md, run S).
    var body: [UInt8] { FetchBody.join(shared, language) }
    /// The body's length in bytes, without joining it.
    var bodyCount: Int { shared.bytes.count + language.bytes.count }
    /// Strong ETag value: `FetchTag.make` of the version and `FetchBody.tagHash` (FNV-1a 64 over the version's shared
    /// pieces, then the language's own): `"v3-AbC-_x9Z"`. Equal bytes, equal tag.
    var etag: String
    var shared: FetchBody.Shared
    var language: FetchBody.Language
    /// What the HTTP edge derives from this response, kept once made (shared by every copy of this value).
    let edge = LazySlot()

    init(appKey: String, version: Int, locale: LocaleTag, shared: FetchBody.Shared, language: FetchBody.Language) {
        self.appKey = appKey
        self.version = version
        self.locale = locale
        self.shared = shared
        self.language = language
        etag = FetchTag.make(version: version, hash: FetchBody.tagHash(shared, language))
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

    /// What it counts against the cache's capacity, in bytes: its bytes and a fixed estimate per topic. (What the edge
    /// derives from the body pieces, one copy per app version in its `edge` slot, is not counted: it lives as long
    /// as this part or a derived cache's entries.)
    var cost: Int {
        body.bytes.count + 256 + 256 * topics.count
    }
}

/// The look cache: per app, the `SharedLook` stored once, and per (app, language) only the `CachedLook`
/// built from it — so an app's memory grows by one response per language served, not by the whole look.
///
/// Bounded: at most `capacityBytes` (bodies, layers and encoded looks plus a fixed overhead per entry), of which
/// shared parts take at most `sharedBytes` (two thirds by default; in the daemon a sixth of `--cache-bytes`) and responses the rest, so a spread of languages over
/// many apps cannot push out the shared parts that make each new language cheap. Within each part, entries are
/// evicted by CLOCK (second chance: an entry read since the hand last passed survives one more turn), so hot
/// looks stay while cold ones go.
///
/// Coherence: `invalidate(appKey:)` drops one app (a publish here, or a change of unknown version);
/// `invalidate(appKey:olderThan:)` drops only what is older than a version the change feed reported.
/// When the change feed is lost, `markStale()` keeps every entry (served meanwhile: the database may be down too);
/// once the feed listens again, `revalidate` drops only the apps whose version changed in the gap
/// (`invalidateAll()` drops everything, when that cannot be read). A `DerivedLookCache` (the edge's copies) is
/// dropped with each app and revalidated with the rest. A fill takes a `FillTicket` before reading
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
        /// The change feed was lost and the entries are not yet revalidated.
        var stale = false
        /// The derived cache could not list its apps when the revalidation began: it is dropped whole at its end.
        var dropDerived = false

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

        /// The entry's value without marking it read.
        func peek(_ key: Key) -> Value? {
            guard let position = index[key] else { return nil }
            return key.isShared ? shared.slots[position]?.value : languages.slots[position]?.value
        }

        /// The version the entry was built from, or nil when there is none.
        func version(_ key: Key) -> Int? {
            switch peek(key) {
            case .shared(let shared)?: shared.version
            case .language(let look)?: look.version
            case nil: nil
            }
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

    /// What one language's entry counts against the capacity: the body, and as much again for what the edge keeps with
    /// it (`edge`: in the daemon a prepared 200 holding the body and, once computed, its compressed forms and their
    /// responses), once more for those compressed forms, the language's pieces, two response heads (about 300 bytes
    /// each), the tag, the key and the bookkeeping.
    static func cost(of look: CachedLook, appKey: String) -> Int {
        // The compressed forms, once computed, are each well under half the body (3.3 KB of JSON: about 0.5 KB each).
        3 * look.bodyCount + look.language.bytes.count + 600 + look.etag.utf8.count + appKey.utf8.count + entryOverhead
    }

    /// The bound, in bytes (0: nothing is kept).
    let capacityBytes: Int
    /// The most of `capacityBytes` that shared parts take (two thirds unless given); responses take the rest.
    let sharedBytes: Int
    private let state = LockedValue(State())

    /// What is derived from this cache's responses elsewhere: every invalidation here drops the app's there too, before
    /// returning.
    let derived: (any DerivedLookCache)?

    /// `sharedBytes`: the most shared parts take (at most `capacityBytes`; nil: two thirds of it).
    init(capacityBytes: Int, sharedBytes: Int? = nil, derived: (any DerivedLookCache)? = nil) {
        self.capacityBytes = capacityBytes
        self.derived = derived
        self.sharedBytes = min(capacityBytes, sharedBytes ?? capacityBytes / 3 * 2)
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

    /// The version of the app's cached shared part, or nil when there is none; not marked read.
    func sharedVersion(appKey: String) -> Int? {
        state.withLock { $0.version(.shared(appKey)) }
    }

    /// What `LookService.fromMemory` needs, read under one lock: the cached response for `appKey` in `locale`, else
    /// the app's shared part with the ticket to keep what is built from it, else nothing. (Three lookups under three
    /// locks were 4.2% of a warm spread pass's samples: docs/benchmarks.md, run M.)
    enum Lookup {
        case look(CachedLook)
        case shared(SharedLook, FillTicket)
        case none
    }

    /// See `Lookup`; marks what it finds read.
    func lookup(appKey: String, locale: LocaleTag) -> Lookup {
        state.withLock { state in
            if case .language(let look)? = state.read(.language(appKey, locale)) { return .look(look) }
            guard case .shared(let shared)? = state.read(.shared(appKey)) else { return .none }
            return .shared(shared, FillTicket(epoch: state.epoch, appEpoch: state.appEpochs[appKey, default: 0]))
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
        derived?.drop(appKey: appKey)
    }

    /// The change feed reported that `appKey` published `version` (here or on another replica; the notification may
    /// come well after the publish): drops the app's entries built from an older version and refuses fills in flight
    /// of older versions, but keeps entries of `version` or newer — a fill that already read the new version (after this
    /// replica's own publish, say) stays, and is still served if the store goes away next. The derived cache drops the
    /// app either way (it refills from the entries kept here, without reading the store).
    func invalidate(appKey: String, olderThan version: Int) {
        state.withLock { state in
            state.floors[appKey] = max(state.floors[appKey, default: 0], version)
            for key in [Key.shared(appKey)] + LocaleTag.allIncludingPseudo.map({ Key.language(appKey, $0) }) {
                if let cached = state.version(key), cached < version { state.remove(key) }
            }
        }
        derived?.drop(appKey: appKey)
    }

    /// Marks every cached look stale (the change feed was lost: changes may be missed from now on) and refuses
    /// every fill in flight. Entries are kept and served until `revalidate` settles each app against the store.
    func markStale() {
        state.withLock { state in
            state.epoch += 1
            state.stale = true
        }
    }

    /// Whether the cache is marked stale (the change feed was lost and the cache not yet revalidated).
    var isStale: Bool { state.withLock { $0.stale } }

    /// Starts a revalidation (the change feed listens again): refuses every fill in flight (it may have read the
    /// store before the feed was back, and would not be checked) and returns the apps with anything cached, here or in
    /// the derived cache, each with the versions its entries were built from (one, unless an entry of an older version
    /// is still there).
    func beginRevalidation() -> [String: Set<Int>] {
        let held = derived?.heldVersions()
        return state.withLock { state in
            state.epoch += 1
            var versions: [String: Set<Int>] = [:]
            for slot in state.shared.slots.compactMap({ $0 }) + state.languages.slots.compactMap({ $0 }) {
                switch (slot.key, slot.value) {
                case (.shared(let appKey), .shared(let shared)): versions[appKey, default: []].insert(shared.version)
                case (.language(let appKey, _), .language(let look)): versions[appKey, default: []].insert(look.version)
                default: break
                }
            }
            if derived != nil {
                if let held {
                    for (appKey, version) in held { versions[appKey, default: []].insert(version) }
                } else {
                    state.dropDerived = true
                }
            }
            return versions
        }
    }

    /// Ends a revalidation with the store's `current` versions of the apps `beginRevalidation` returned (`checked`):
    /// each app whose entries (here or in the derived cache) are not all of its current version, or which has none now,
    /// is invalidated; the others are kept. The stale mark is cleared. When the derived cache could not list its apps,
    /// it is dropped whole. Returns how many apps were invalidated.
    @discardableResult
    func revalidate(current: [String: Int], checked: [String: Set<Int>]) -> Int {
        var dropped = 0
        for (appKey, versions) in checked where versions != [current[appKey] ?? -1] {
            invalidate(appKey: appKey)
            dropped += 1
        }
        let dropDerived = state.withLock { state in
            state.stale = false
            defer { state.dropDerived = false }
            return state.dropDerived
        }
        if dropDerived { derived?.drop(appKey: nil) }
        return dropped
    }

    /// Drops every cached look and refuses every fill in flight (the change feed was lost and the cache could
    /// not be revalidated).
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
        derived?.drop(appKey: nil)
    }

    /// Entries (shared parts and responses) and their bytes, for tests and metrics.
    var usage: (entries: Int, bytes: Int) {
        state.withLock { ($0.index.count, $0.bytes) }
    }
}
