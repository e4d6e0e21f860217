import HTTPEngine
@testable import LookdServer
import Testing

/// What an entry of the engine's response cache counts against its bound, computed by hand from the layout
/// docs/http.md documents ("The engine's response cache": an entry is 72 bytes, 2 per field it varies on, its target,
/// its tag and ETags unless the target and the 200's head carry them, 48 when it holds a coding besides identity; a
/// prepared response 44 bytes, 8 per body run, its head — without a shared head prefix's bytes and Content-Length when
/// it has one — and the body bytes it owns), the bound that follows from it, and the purge by tag, which finds a tag
/// whether the entry stores it or it is a run of the target.
@Suite("Response cache: what an entry costs, the bound, purge by tag", .timeLimit(.minutes(10)))
struct ResponseCacheCostTests {
    static let etag = #""v1-0123456789abcdef""#   // 21 bytes

    /// A 200 like an SDK fetch's: `Content-Type` and `ETag` fields, a body of a 10-byte shared run, 5 bytes of its own
    /// and another 10-byte shared run. Its head, counted by hand: "HTTP/1.1 200 OK\r\n" 17, "Content-Type:
    /// application/json\r\n" 32, "ETag: " + tag + "\r\n" 29, "Content-Length: 25\r\n" 20: 98 bytes. Its block: 44 +
    /// 3 runs × 8 + 98 + 5 owned = 171 bytes. And its 304, whose fields (the `ETag` line) are a run of the 200's head.
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
        // "/v1/apps/pk_test_abc/look?lang=de": 33 bytes; its tag "pk_test_abc" is a run of it and its ETag a run of the
        // 200's head, so neither is stored again; it varies on one field (Lookd-Preview, absent): 2 bytes.
        // 72 + 2 + 33 + 171 (the 200; the 304 is written from the 200's head) = 278.
        #expect(Self.put(cache, target: "/v1/apps/pk_test_abc/look?lang=de", tag: "pk_test_abc", shared))
        #expect(cache.usage.entries == 1)
        #expect(cache.usage.bytes == 278)
        // A tag that is not a run of the target ("other", 5 bytes) is stored: 278 + 5.
        #expect(Self.put(cache, target: "/v1/apps/pk_test_abc/look?lang=fr", tag: "other", shared))
        #expect(cache.usage.bytes == 278 + 283)
        // A 304 whose fields are not a run of the 200's head is kept: "HTTP/1.1 304 Not Modified\r\n" 27 +
        // "ETag: W/…\r\n" 31 = 58 bytes of head, no runs: 44 + 58 = 102 more than the first entry.
        #expect(Self.put(cache, target: "/v1/apps/pk_test_abc/look?lang=it", tag: "pk_test_abc", shared,
                         notModifiedFields: [("ETag", "W/" + Self.etag)]))
        #expect(cache.usage.entries == 3)
        #expect(cache.usage.bytes == 278 + 283 + 380)
    }

    @Test func a304GivenAsItsFieldsAloneCostsNothingWhenTheyAreARunOfThe200sHeadAndItsOwnBlockOtherwise() {
        let shared = EngineBytes(Array("0123456789abcdefghij".utf8))
        let cache = EngineResponseCache(capacityBytes: 64 << 20, labels: ["fetch"], bounds: [])
        let (ok, notModified) = Self.fetchLike(shared)
        defer {
            he_prepared_release(ok)
            he_prepared_release(notModified)
        }
        // The fields "ETag: …\r\n" are a run of the 200's head: nothing more is kept, 278 as with a prepared 304.
        #expect(cache.put(generation: cache.generation, target: "/v1/apps/pk_test_abc/look?lang=de", tag: "pk_test_abc", etag: Self.etag,
                          label: 0, ok: ok, notModified: nil, notModifiedFields: Array("ETag: \(Self.etag)\r\n".utf8)))
        #expect(cache.usage.bytes == 278)
        // "ETag: W/…\r\n" is not: the engine builds the 304, "HTTP/1.1 304 Not Modified\r\n" 27 + 31 = 58 bytes of head,
        // no runs: 44 + 58 = 102 more.
        #expect(cache.put(generation: cache.generation, target: "/v1/apps/pk_test_abc/look?lang=fr", tag: "pk_test_abc", etag: Self.etag,
                          label: 0, ok: ok, notModified: nil, notModifiedFields: Array("ETag: W/\(Self.etag)\r\n".utf8)))
        #expect(cache.usage.bytes == 278 + 380)
    }

    @Test func aTagTheHeadDoesNotCarryIsStoredAndACodingAddsItsBlockAndTheCodingsRecord() {
        let shared = EngineBytes(Array("0123456789abcdefghij".utf8))
        let cache = EngineResponseCache(capacityBytes: 64 << 20, labels: ["fetch"], bounds: [])
        // A 200 without an ETag field: head "HTTP/1.1 200 OK\r\n" 17 + "Content-Length: 5\r\n" 19 = 36, one run:
        // 44 + 8 + 36 + 5 = 93; its 304 (no fields) is kept: 44 + 27 = 71. The entry stores its 21-byte tag:
        // 72 + 2 + 33 + 21 + 93 + 71 = 292.
        let ok = composedResponse(status: 200, headers: [], runs: [.own(Array("hello".utf8))])
        let notModified = composedResponse(status: 304, headers: [], runs: [])
        #expect(cache.put(generation: cache.generation, target: "/v1/apps/pk_test_abc/look?lang=de", tag: "pk_test_abc", etag: Self.etag,
                          label: 0, ok: ok, notModified: notModified))
        #expect(cache.usage.bytes == 292)
        he_prepared_release(ok)
        he_prepared_release(notModified)
        // The fetch-like entry (278) with its gzip form: 48 for the record of the codings besides identity, and the gzip
        // 200: head 17 + "Content-Type: application/json\r\n" 32 + "ETag: \"v1-0123456789abcdef-gz\"\r\n" 32 +
        // "Content-Encoding: gzip\r\n" 24 + "Content-Length: 5\r\n" 19 = 124, one run: 44 + 8 + 124 + 5 = 181 (its
        // tag and its 304 are runs of that head). 278 + 48 + 181 = 507.
        let gzipTag = #""v1-0123456789abcdef-gz""#
        let gzip = composedResponse(status: 200, headers: [("Content-Type", "application/json"), ("ETag", gzipTag), ("Content-Encoding", "gzip")],
                                    runs: [.own(Array("12345".utf8))])
        let gzipNotModified = composedResponse(status: 304, headers: [("ETag", gzipTag)], runs: [])
        let (identity, identityNotModified) = Self.fetchLike(shared)
        #expect(cache.put(generation: cache.generation, target: "/v1/apps/pk_test_abc/look?lang=fr", tag: "pk_test_abc", etag: Self.etag,
                          label: 0, ok: identity, notModified: identityNotModified, offered: [.identity, .gzip],
                          coded: [(coding: .gzip, etag: gzipTag, ok: gzip, notModified: gzipNotModified)]))
        #expect(cache.usage.bytes == 292 + 507)
        for made in [gzip, gzipNotModified, identity, identityNotModified] { he_prepared_release(made) }
    }

    @Test func aResponseWithASharedHeadPrefixCountsOnlyItsOwnFieldsAndItsRuns() {
        let shared = EngineBytes(Array("0123456789abcdefghij".utf8))
        let prefix = EngineHeadPrefix(status: 200, headers: [("Content-Type", "application/json")])
        let cache = EngineResponseCache(capacityBytes: 64 << 20, labels: ["fetch"], bounds: [])
        // The fetch-like 200 with its status line and Content-Type in the prefix (not counted: the prefix is shared) and
        // no Content-Length kept (written per answer): its head is "ETag: " + tag + "\r\n" 29 bytes; its block
        // 44 + 3 × 8 + 29 + 5 = 102; the entry 72 + 2 + 33 + 102 = 209 — the 278 of the same response made plainly, less
        // the status line 17, Content-Type 32 and Content-Length 20. Its 304 ("ETag: …\r\n") is a run of its head.
        let ok = composedResponse(status: 200, headers: [("ETag", Self.etag)],
                                  runs: [.shared(shared, 0..<10), .own(Array("hello".utf8)), .shared(shared, 10..<20)], prefix: prefix)
        defer { he_prepared_release(ok) }
        #expect(he_prepared_size(ok) == 102)
        #expect(cache.put(generation: cache.generation, target: "/v1/apps/pk_test_abc/look?lang=de", tag: "pk_test_abc", etag: Self.etag,
                          label: 0, ok: ok, notModified: nil, notModifiedFields: Array("ETag: \(Self.etag)\r\n".utf8)))
        #expect(cache.usage.bytes == 209)
    }

    @Test func theBoundHoldsExactlyAsManyEntriesAsEachShardsShareHasRoomFor() {
        let shared = EngineBytes(Array("0123456789abcdefghij".utf8))
        // Each entry 278 bytes (the targets are all 33 bytes long); 64 shards, each with a 64th of the capacity:
        // 64 × 1,000 bytes gives each shard room for 3 entries (834 ≤ 1,000 < 1,112), so 192 entries at most, whatever
        // is put: here 900 distinct targets, enough to fill every shard.
        let cache = EngineResponseCache(capacityBytes: 64 * 1_000, labels: ["fetch"], bounds: [])
        for index in 100..<1_000 {
            let key = "pk_test_" + String(index)   // 11 bytes
            _ = Self.put(cache, target: "/v1/apps/\(key)/look?lang=de", tag: key, shared)
        }
        #expect(cache.usage.entries == 192)
        #expect(cache.usage.bytes == 192 * 278)
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
        // What remains is the other app's, 279 bytes each (its target is a byte longer).
        #expect(cache.usage.bytes == languages.count * 279)
        cache.purge(tag: "pk_test_abcd")
        #expect(cache.usage.entries == 0)
        #expect(cache.usage.bytes == 0)
    }
}
