import HTTPEngine
@testable import LookdServer
import Testing

/// What an entry of the engine's response cache counts against its bound, computed by hand from the layout
/// docs/http.md documents ("The engine's response cache": an entry is 120 bytes and its strings; a prepared response
/// 40 bytes, 16 per body run, its head and the body bytes it owns), the bound that follows from it, and the purge
/// by tag, which finds a tag whether the entry stores it or it is a run of the target.
@Suite("Response cache: what an entry costs, the bound, purge by tag", .timeLimit(.minutes(2)))
struct ResponseCacheCostTests {
    static let etag = #""v1-0123456789abcdef""#   // 21 bytes

    /// A 200 like an SDK fetch's: `Content-Type` and `ETag` fields, a body of a 10-byte shared run, 5 bytes of its own
    /// and another 10-byte shared run. Its head, counted by hand: "HTTP/1.1 200 OK\r\n" 17, "Content-Type:
    /// application/json\r\n" 32, "ETag: " + tag + "\r\n" 29, "Content-Length: 25\r\n" 20: 98 bytes. Its block: 40 +
    /// 3 runs × 16 + 98 + 5 owned = 191 bytes. And its 304, whose fields (the `ETag` line) are a run of the 200's head.
    static func fetchLike(_ shared: EngineBytes) -> (ok: OpaquePointer, notModified: OpaquePointer) {
        let ok = composedResponse(status: 200, headers: [("Content-Type", "application/json"), ("ETag", etag)],
                                  runs: [.shared(shared, 0..<10), .own(Array("hello".utf8)), .shared(shared, 10..<20)])
        let notModified = composedResponse(status: 304, headers: [("ETag", etag)], runs: [])
        return (ok, notModified)
    }

    static func put(_ cache: EngineResponseCache, target: String, tag: String, _ shared: EngineBytes, notModifiedFields: [(name: String, value: String)]? = nil) -> Bool {
        var (ok, notModified) = fetchLike(shared)
        if let notModifiedFields {
            he_prepared_release(notModified)
            notModified = composedResponse(status: 304, headers: notModifiedFields, runs: [])
        }
        defer {
            he_prepared_release(ok)
            he_prepared_release(notModified)
        }
        return cache.put(generation: cache.generation, target: target, tag: tag, etag: etag, label: 0, ok: ok, notModified: notModified)
    }

    @Test func anEntryCostsItsBookkeepingItsStringsAndTheBlocksItHoldsCountedByHand() {
        let shared = EngineBytes(Array("0123456789abcdefghij".utf8))
        let cache = EngineResponseCache(capacityBytes: 64 << 20, labels: ["fetch"], bounds: [])
        // "/v1/apps/pk_test_abc/look?lang=de": 33 bytes; its tag "pk_test_abc" is a run of it, so not stored again.
        // 120 + 33 + 21 (ETag) + 191 (the 200; the 304 is written from the 200's head) = 365.
        #expect(Self.put(cache, target: "/v1/apps/pk_test_abc/look?lang=de", tag: "pk_test_abc", shared))
        #expect(cache.usage.entries == 1)
        #expect(cache.usage.bytes == 365)
        // A tag that is not a run of the target ("other", 5 bytes) is stored: 365 + 5.
        #expect(Self.put(cache, target: "/v1/apps/pk_test_abc/look?lang=fr", tag: "other", shared))
        #expect(cache.usage.bytes == 365 + 370)
        // A 304 whose fields are not a run of the 200's head is kept: "HTTP/1.1 304 Not Modified\r\n" 27 +
        // "ETag: W/…\r\n" 31 = 58 bytes of head, no runs: 40 + 58 = 98 more than the first entry.
        #expect(Self.put(cache, target: "/v1/apps/pk_test_abc/look?lang=it", tag: "pk_test_abc", shared,
                         notModifiedFields: [("ETag", "W/" + Self.etag)]))
        #expect(cache.usage.entries == 3)
        #expect(cache.usage.bytes == 365 + 370 + 365 + 98)
    }

    @Test func theBoundHoldsExactlyAsManyEntriesAsEachShardsShareHasRoomFor() {
        let shared = EngineBytes(Array("0123456789abcdefghij".utf8))
        // Each entry 365 bytes (the targets are all 33 bytes long); 64 shards, each with a 64th of the capacity:
        // 64 × 1,000 bytes gives each shard room for 2 entries (730 ≤ 1,000 < 1,095), so 128 entries at most, whatever
        // is put: here 900 distinct targets, enough to fill every shard.
        let cache = EngineResponseCache(capacityBytes: 64 * 1_000, labels: ["fetch"], bounds: [])
        for index in 100..<1_000 {
            let key = "pk_test_" + String(index)   // 11 bytes
            _ = Self.put(cache, target: "/v1/apps/\(key)/look?lang=de", tag: key, shared)
        }
        #expect(cache.usage.entries == 128)
        #expect(cache.usage.bytes == 128 * 365)
        #expect(cache.usage.bytes <= 64 * 1_000)
    }

    @Test func aPurgeByTagRemovesEveryEntryOfTheAppWhereverItsTagIsKeptAndNoOther() {
        let shared = EngineBytes(Array("0123456789abcdefghij".utf8))
        let cache = EngineResponseCache(capacityBytes: 64 << 20, labels: ["fetch"], bounds: [])
        let languages = ["de", "fr", "it", "ja", "ko", "nl", "pl", "ru"]
        for lang in languages {
            // The app's tag as a run of its targets, of another app's whose key it begins, and stored on its own.
            #expect(Self.put(cache, target: "/v1/apps/pk_test_abc/look?lang=\(lang)", tag: "pk_test_abc", shared))
            #expect(Self.put(cache, target: "/v1/apps/pk_test_abcd/look?lang=\(lang)", tag: "pk_test_abcd", shared))
            #expect(Self.put(cache, target: "/v2/other/\(lang)", tag: "pk_test_abc", shared))
        }
        #expect(cache.usage.entries == 3 * languages.count)
        cache.purge(tag: "pk_test_abc")
        #expect(cache.usage.entries == languages.count)
        // What remains is the other app's, 366 bytes each (its target is a byte longer).
        #expect(cache.usage.bytes == languages.count * 366)
        cache.purge(tag: "pk_test_abcd")
        #expect(cache.usage.entries == 0)
        #expect(cache.usage.bytes == 0)
    }
}
