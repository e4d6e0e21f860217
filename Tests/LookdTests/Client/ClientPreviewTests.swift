import Foundation
import LookClient
@testable import LookdServer
import LookResolver
import StableJSON
import Testing

/// What the server says must not be stored never reaches the disk: answers marked `no-store` (the real daemon's
/// answer with its `Cache-Control` rewritten by the proxy) and drafts (the real daemon's `private, no-store` answer to
/// a preview token, docs/preview.md). A draft is shown while a preview token is set and never replaces the
/// published look; a refused token gives the published look and a clear error.
@Suite(.timeLimit(.minutes(10)))
struct ClientPreviewTests {
    let live: LiveLookd
    let key = newKey()
    let published: JSONValue = .object(["accent": .string("#34C759"), "appName": .string("Ledgerly")])
    let draft: JSONValue = .object(["accent": .string("#FF2D55"), "corners": .string("square"), "appName": .string("Ledgerly Next")])

    init() throws {
        live = try LiveLookd()
        try live.publish(key, published, version: 1)
    }

    @Test(arguments: ["no-store", "private, no-store", "No-Store, max-age=600"])
    func aNoStoreAnswerIsNeverWrittenToDisk(cacheControl: String) async throws {
        let client = live.client(key)
        #expect(await client.look(language: "de").source == .network)
        let before = try live.cacheSnapshot()
        #expect(before.keys.sorted() == ["look-\(key)-de.cache"])
        try live.publish(key, .object(["corners": .string("soft")]), version: 2)
        live.proxy.set(.cacheControl(cacheControl))
        let second = await client.refresh(language: "de")
        #expect(second.source == .network && second.version == 2 && second.error == nil && second.look.corners.value == .soft)
        // The file of the earlier, storable answer is as it was; the no-store answer was not written.
        #expect(try live.cacheSnapshot() == before)
        // A language fetched only with no-store leaves no file at all.
        #expect(await client.look(language: "ja").version == 2)
        #expect(try live.cacheSnapshot() == before)
        // It is stale at once (asked again: a request), and kept in memory as the last good look.
        live.proxy.set(.canned(Array("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)))
        let requests = live.proxy.requests.count
        let failed = await client.refresh(language: "ja")
        #expect(live.proxy.requests.count == requests + 1)
        #expect(failed.source == .cache && failed.version == 2 && failed.error == .status(500, code: nil))
    }

    @Test func aPreviewTokenShowsTheDraftAndNeverTouchesThePublishedLook() async throws {
        let client = live.client(key)
        let first = await client.look(language: "de")
        #expect(first.source == .network && first.version == 1 && !first.isDraft)
        let before = try live.cacheSnapshot()
        let token = try live.draftToken(key, draft, version: 1)
        let link = try #require(URL(string: "https://app.example/support?pingfront=chat&preview=\(token)"))
        #expect(LookClient.previewToken(in: link) == token)
        #expect(LookClient.previewToken(in: try #require(URL(string: "https://app.example/support?pingfront=chat"))) == nil)

        await client.setPreviewToken(token)
        let shown = await client.look(language: "de")
        #expect(shown.isDraft && shown.source == .network && shown.version == 1 && shown.error == nil && shown.age == 0)
        #expect(shown.locale == "de" && shown.texts?.locale == "de")
        // The draft's layer merged as the daemon resolves it.
        #expect(shown.look.jsonBytes() == (try live.resolve(draft, AppLayers())))
        // Sent with the token in Lookd-Preview and no If-None-Match (a draft has no entity tag).
        let head = try #require(live.proxy.requests.last).lowercased()
        #expect(head.contains("lookd-preview: \(token.lowercased())\r\n") && !head.contains("if-none-match"))
        // Never cached: every call asks again, and the disk holds what it held before.
        #expect(await client.look(language: "de").isDraft)
        #expect(live.proxy.requests.count == 3)
        #expect(await client.look(language: "fr").isDraft)
        #expect(try live.cacheSnapshot() == before)

        // The daemon's draft answer, seen through the wire model: marked, no publish date, the same bytes again.
        let draftBody = try #require(live.proxy.lastOKResponse)
        let bodyStart = try #require(draftBody.indices.first { draftBody[$0...].starts(with: Array("\r\n\r\n".utf8)) }) + 4
        // Compressed on the fly when the client accepts it (URLSession does; docs/http-api.md): decoded as the client did.
        let fields = String(decoding: draftBody[..<bodyStart], as: UTF8.self).lowercased()
        var draftBytes = Array(draftBody[bodyStart...])
        if fields.contains("\r\ncontent-encoding: br\r\n") { draftBytes = try Brotli.decompress(draftBytes) }
        if fields.contains("\r\ncontent-encoding: gzip\r\n") { draftBytes = try Gzip.decompress(draftBytes) }
        let answer = try FetchedLook(json: draftBytes)
        #expect(answer.isDraft && answer.publishedAt == nil && answer.jsonBytes() == draftBytes)

        // Back to the published look: the cached one, no request.
        await client.setPreviewToken(nil)
        let back = await client.look(language: "de")
        #expect(!back.isDraft && back.source == .cache && back.version == 1 && back.look == first.look)
        #expect(live.proxy.requests.count == 4)
        // A draft answering a request without a token (a cache in between mixing them up) replaces nothing.
        live.proxy.set(.canned(draftBody))
        let mixed = await client.refresh(language: "de")
        #expect(!mixed.isDraft && mixed.version == 1 && mixed.look == first.look)
        guard case .invalidAnswer? = mixed.error else { Issue.record("got \(String(describing: mixed.error))"); return }
        #expect(try live.cacheSnapshot() == before)
        // A cold start sees the published look.
        let cold = await live.client(key).look(language: "de")
        #expect(cold.source == .cache && !cold.isDraft && cold.look == first.look)
    }

    @Test func aRefusedTokenGivesThePublishedLookAndAClearError() async throws {
        let client = live.client(key)
        let first = await client.look(language: "de")
        let token = try live.draftToken(key, draft, version: 1)
        _ = try live.draftToken(key, .object(["corners": .string("soft")]), version: 2)   // saving the draft ends the first token
        await client.setPreviewToken(token)
        let refused = await client.look(language: "de")
        #expect(!refused.isDraft && refused.source == .cache && refused.version == 1 && refused.look == first.look)
        #expect(refused.error == .previewTokenInvalid)
        #expect(await client.previewToken == nil)
        // The token is forgotten: the next call is the published look, no preview request.
        let requests = live.proxy.requests.count
        #expect(await client.look(language: "de").error == nil && live.proxy.requests.count == requests)

        // A first launch with a refused token: the published look, fetched.
        let other = try TemporaryDirectory()
        let fresh = live.client(key, cache: URL(fileURLWithPath: other.path))
        await fresh.setPreviewToken("pv1.forged")
        let shown = await fresh.look(language: "fr")
        #expect(shown.source == .network && shown.version == 1 && !shown.isDraft && shown.error == .previewTokenInvalid)
    }
}
