@testable import LookdServer
import LookResolver
import Strings
import Testing

@Suite("Look cache: shared part once per app, CLOCK eviction, invalidation, fills racing publishes", .timeLimit(.minutes(10)))
struct LookCacheTests {
    static let resolved = Resolver().resolve(LookLayers(dashboard: .object(["appName": .string("Ledgerly")])))

    static func shared(version: Int = 1) -> SharedLook {
        SharedLook(appKey: "a", stored: StoredVersion(version: version, layer: "{\"appName\":\"Ledgerly\"}", publishedAt: "2026-12-01T10:00:00.000Z"),
                   resolved: resolved)
    }

    static func look(version: Int = 1, bytes: Int = 100) -> CachedLook {
        CachedLook(appKey: "a", version: version, locale: .english, shared: FetchBody.Shared(bytes: [UInt8](repeating: 0x7B, count: bytes), cut1: 0, cut2: 0),
                   language: FetchBody.Language(bytes: [], cut: 0))
    }

    static func locale(_ identifier: String) throws -> LocaleTag {
        try #require(LocaleTag.all.first { $0.identifier == identifier })
    }

    @Test func theSharedPartIsStoredOncePerAppNotOncePerLanguage() throws {
        let cache = LookCache(capacityBytes: 1 << 20)
        let ticket = cache.ticket(appKey: "a")
        cache.keep(Self.shared(), appKey: "a", ticket: ticket)
        let afterShared = cache.usage.bytes
        for locale in LocaleTag.all { cache.keep(Self.look(), appKey: "a", locale: locale, ticket: ticket) }
        let perLanguage = (cache.usage.bytes - afterShared) / LocaleTag.all.count
        #expect(cache.usage.entries == LocaleTag.all.count + 1)
        #expect(perLanguage < afterShared, "a language costs its own response only, less than the shared look")
        let kept = try #require(cache.shared(appKey: "a")?.body.bytes)
        #expect(kept.count > Self.resolved.jsonBytes().count)
        #expect(kept.starts(with: Array(#"{"appKey":"a","dashboard":{"appName":"Ledgerly"},"look":"#.utf8) + Self.resolved.jsonBytes()))
    }

    /// The tag is FNV-1a 64 over the shared pieces then the language's own, without hashing the joined body: checked
    /// against the published FNV-1a 64 of that byte string, computed here by the algorithm's definition, and against
    /// a hand-computed vector (FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c, draft-eastlake-fnv's test vectors).
    @Test func theTagIsFNV1aOverTheSharedPiecesThenTheLanguage() throws {
        func fnv(_ bytes: [UInt8]) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
        let one = FetchBody.Shared(bytes: Array("a".utf8), cut1: 0, cut2: 0)
        #expect(FetchBody.tagHash(one, FetchBody.Language(bytes: [], cut: 0)) == 0xaf63_dc4c_8601_ec8c)
        let shared = FetchBody.Shared(bytes: Array(#"{"appKey":"a","look":{},"version":3}"#.utf8), cut1: 15, cut2: 25)
        let german = FetchBody.Language(bytes: Array(#""locale":"de","texts":{},"#.utf8), cut: 14)
        let french = FetchBody.Language(bytes: Array(#""locale":"fr","texts":{},"#.utf8), cut: 14)
        #expect(FetchBody.tagHash(shared, german) == fnv(shared.bytes + german.bytes))
        #expect(FetchBody.tagHash(shared, german) != FetchBody.tagHash(shared, french))
        let look = CachedLook(appKey: "a", version: 3, locale: try Self.locale("de"), shared: shared, language: german)
        // The tag spells this hash (its spelling is FetchTagTests' subject).
        #expect(look.etag == FetchTag.make(version: 3, hash: fnv(shared.bytes + german.bytes)))
        #expect(look.etag != FetchTag.make(version: 3, hash: fnv(shared.bytes + french.bytes)))
    }

    @Test func evictionKeepsWhatWasReadSinceTheHandPassed() throws {
        let (en, de, fr, ar) = (try Self.locale("en"), try Self.locale("de"), try Self.locale("fr"), try Self.locale("ar"))
        let entry = LookCache.cost(of: Self.look(), appKey: "a")
        let cache = LookCache(capacityBytes: 9 * entry)   // responses take a third: three entries
        let ticket = cache.ticket(appKey: "a")
        for locale in [en, de, fr] { cache.keep(Self.look(), appKey: "a", locale: locale, ticket: ticket) }
        #expect(cache.look(appKey: "a", locale: en) != nil)   // read: survives the next eviction
        cache.keep(Self.look(), appKey: "a", locale: ar, ticket: ticket)
        #expect(cache.usage.entries == 3)
        #expect(cache.usage.bytes <= cache.capacityBytes - cache.sharedBytes)
        #expect(cache.look(appKey: "a", locale: en) != nil)
        #expect(cache.look(appKey: "a", locale: de) == nil)
        #expect(cache.look(appKey: "a", locale: ar) != nil)
    }

    @Test func responsesNeverPushOutSharedParts() throws {
        let entry = LookCache.cost(of: Self.look(), appKey: "a")
        let cache = LookCache(capacityBytes: 9 * entry)
        let ticket = cache.ticket(appKey: "a")
        cache.keep(Self.shared(), appKey: "a", ticket: ticket)
        for locale in LocaleTag.all { cache.keep(Self.look(), appKey: "a", locale: locale, ticket: ticket) }
        #expect(cache.shared(appKey: "a") != nil)
        #expect(cache.usage.bytes <= cache.capacityBytes)
        #expect(cache.usage.entries == 4, "the shared part and as many responses as their third holds")
    }

    @Test func invalidationDropsOneAppAndRefusesFillsThatRacedIt() throws {
        let de = try Self.locale("de")
        let cache = LookCache(capacityBytes: 1 << 20)
        for app in ["a", "b"] {
            let ticket = cache.ticket(appKey: app)
            cache.keep(Self.shared(), appKey: app, ticket: ticket)
            cache.keep(Self.look(), appKey: app, locale: de, ticket: ticket)
        }
        let raced = cache.ticket(appKey: "a")   // a fetch read v1 from the store…
        cache.invalidate(appKey: "a", atLeast: 2)   // …while v2 was published
        #expect(cache.look(appKey: "a", locale: de) == nil)
        #expect(cache.shared(appKey: "a") == nil)
        #expect(cache.look(appKey: "b", locale: de) != nil)
        cache.keep(Self.look(version: 1), appKey: "a", locale: de, ticket: raced)
        #expect(cache.look(appKey: "a", locale: de) == nil, "a fill that raced a publish is not kept")
        cache.keep(Self.look(version: 1), appKey: "a", locale: de, ticket: cache.ticket(appKey: "a"))
        #expect(cache.look(appKey: "a", locale: de) == nil, "a version below the floor is not kept")
        cache.keep(Self.look(version: 2), appKey: "a", locale: de, ticket: cache.ticket(appKey: "a"))
        #expect(cache.look(appKey: "a", locale: de)?.version == 2)
    }

    @Test func invalidateAllDropsEverythingAndRefusesEveryFillInFlight() throws {
        let de = try Self.locale("de")
        let cache = LookCache(capacityBytes: 1 << 20)
        let ticket = cache.ticket(appKey: "a")
        cache.keep(Self.look(), appKey: "a", locale: de, ticket: ticket)
        cache.keep(Self.look(), appKey: "b", locale: de, ticket: cache.ticket(appKey: "b"))
        cache.invalidateAll()
        #expect(cache.usage.entries == 0 && cache.usage.bytes == 0)
        cache.keep(Self.look(), appKey: "a", locale: de, ticket: ticket)
        #expect(cache.look(appKey: "a", locale: de) == nil)
    }

    @Test func aLostFeedKeepsEveryEntryAndRevalidationDropsOnlyTheAppsThatChanged() throws {
        let de = try Self.locale("de")
        let cache = LookCache(capacityBytes: 1 << 20)
        for app in ["same", "newer", "gone"] {
            let ticket = cache.ticket(appKey: app)
            cache.keep(Self.shared(version: 3), appKey: app, ticket: ticket)
            cache.keep(Self.look(version: 3), appKey: app, locale: de, ticket: ticket)
        }
        let inFlight = cache.ticket(appKey: "late")   // a fetch that read the store before the feed was lost
        cache.markStale()
        #expect(cache.isStale)
        #expect(cache.usage.entries == 6, "nothing is dropped while the feed is away")
        for app in ["same", "newer", "gone"] { #expect(cache.look(appKey: app, locale: de)?.version == 3) }
        cache.keep(Self.look(version: 1), appKey: "late", locale: de, ticket: inFlight)
        #expect(cache.look(appKey: "late", locale: de) == nil, "a fill begun before the loss is refused")

        let checked = cache.beginRevalidation()
        #expect(checked == ["same": [3], "newer": [3], "gone": [3]])
        // The store says: `same` is still at 3, `newer` was published in the gap, `gone` has no version.
        #expect(cache.revalidate(current: ["same": 3, "newer": 4], checked: checked) == 2)
        #expect(!cache.isStale)
        #expect(cache.look(appKey: "same", locale: de)?.version == 3)
        #expect(cache.shared(appKey: "same")?.version == 3)
        #expect(cache.look(appKey: "newer", locale: de) == nil && cache.shared(appKey: "newer") == nil)
        #expect(cache.look(appKey: "gone", locale: de) == nil)
    }

    @Test func aFillBegunBeforeARevalidationIsRefused() throws {
        let de = try Self.locale("de")
        let cache = LookCache(capacityBytes: 1 << 20)
        let ticket = cache.ticket(appKey: "a")   // read the store while the feed was away…
        cache.markStale()
        let early = cache.ticket(appKey: "a")
        let checked = cache.beginRevalidation()   // …and is kept only after the cached apps were listed
        cache.keep(Self.look(version: 1), appKey: "a", locale: de, ticket: early)
        cache.keep(Self.look(version: 1), appKey: "a", locale: de, ticket: ticket)
        #expect(cache.look(appKey: "a", locale: de) == nil, "it would escape the check")
        cache.revalidate(current: [:], checked: checked)
        cache.keep(Self.look(version: 2), appKey: "a", locale: de, ticket: cache.ticket(appKey: "a"))
        #expect(cache.look(appKey: "a", locale: de)?.version == 2)
    }

    /// A derived cache that records what the look cache asks of it.
    final class Derived: DerivedLookCache, @unchecked Sendable {
        let capacityBytes = 0
        var held: [String: Int]?
        var dropped: [String?] = []

        init(held: [String: Int]?) { self.held = held }

        func drop(appKey: String?) { dropped.append(appKey) }
        func heldVersions() -> [String: Int]? { held }
    }

    @Test func aDerivedCacheIsDroppedWithEachAppAndRevalidatedWithTheRest() throws {
        let de = try Self.locale("de")
        let derived = Derived(held: ["kept": 3, "onlyThere": 2])
        let cache = LookCache(capacityBytes: 1 << 20, derived: derived)
        cache.keep(Self.look(version: 3), appKey: "kept", locale: de, ticket: cache.ticket(appKey: "kept"))
        cache.invalidate(appKey: "published", atLeast: 4)
        cache.invalidate(appKey: "notified", olderThan: 5)
        #expect(derived.dropped == ["published", "notified"])

        // An app only the derived cache holds is checked too: the store says it is at 3 now, so it is dropped.
        cache.markStale()
        let checked = cache.beginRevalidation()
        #expect(checked == ["kept": [3], "onlyThere": [2]])
        #expect(cache.revalidate(current: ["kept": 3, "onlyThere": 3], checked: checked) == 1)
        #expect(derived.dropped == ["published", "notified", "onlyThere"])

        // A derived cache that lost count of its apps is dropped whole at the end of a revalidation.
        derived.held = nil
        cache.markStale()
        let none = cache.beginRevalidation()
        #expect(none == ["kept": [3]])
        #expect(cache.revalidate(current: ["kept": 3], checked: none) == 0)
        #expect(derived.dropped == ["published", "notified", "onlyThere", nil])
        cache.invalidateAll()
        #expect(derived.dropped == ["published", "notified", "onlyThere", nil, nil])
    }
}
