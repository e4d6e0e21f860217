import Foundation
import LookClient
import LookResolver
import StableJSON
import Testing

/// The disk cache cannot hurt the app: a cold start reads a fresh file without a request; a truncated, corrupted,
/// future-format or foreign file is deleted and the look fetched again, never a crash.
@Suite(.timeLimit(.minutes(10)))
struct ClientCacheTests {
    let live: LiveLookd
    let key = newKey()

    init() throws {
        live = try LiveLookd()
        try live.publish(key, .object(["accent": .string("#3550E6"), "appName": .string("Ledgerly")]), version: 1)
    }

    var file: String { live.cache.path + "/look-\(key)-de.cache" }

    /// Fetches once (writing the file), lets `damage` change its bytes, and returns what a new client (a cold start)
    /// does with it.
    func coldStart(after damage: (inout [UInt8]) -> Void) async throws -> ClientLook {
        #expect(await live.client(key).look(language: "de").source == .network)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        damage(&bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return await live.client(key).look(language: "de")
    }

    @Test func aColdStartReadsTheFreshFileWithoutARequest() async throws {
        let look = try await coldStart { _ in }
        #expect(look.source == .cache && look.version == 1 && look.discardedCache == nil && look.look.appName.value == "Ledgerly")
        #expect(live.proxy.requests.count == 1)
        // The file: the format's first line, a one-line header, then the answer's bytes exactly.
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
        #expect(text.hasPrefix("lookd-client-cache 1\n{\"appKey\":\"\(key)\",\"bodyBytes\":"))
        let body = try live.app.get("/v1/apps/\(key)/look?lang=de").body
        #expect(text.hasSuffix("\n" + String(decoding: body, as: UTF8.self)))
    }

    /// Ways a cache file goes bad.
    enum Damage: String, CaseIterable, Sendable {
        case truncated, byteFlipped, futureFormat, empty, notACacheFile, headerOnly

        func apply(_ bytes: inout [UInt8]) {
            switch self {
            case .truncated: bytes.removeLast(bytes.count / 3)
            case .byteFlipped: bytes[bytes.count - 40] ^= 0x20
            case .futureFormat: bytes.replaceSubrange(0..<21, with: Array("lookd-client-cache 2\n".utf8))
            case .empty: bytes = []
            case .notACacheFile: bytes = Array("<html>".utf8)
            case .headerOnly: bytes = Array(bytes.prefix { $0 != 0x7D })
            }
        }
    }

    @Test(arguments: Damage.allCases)
    func anUnusableFileIsDiscardedAndRefetched(damage: Damage) async throws {
        let name = damage.rawValue
        let look = try await coldStart(after: damage.apply)
        #expect(look.source == .network && look.version == 1 && look.error == nil, "\(name)")
        #expect(look.discardedCache != nil, "\(name)")
        #expect(live.proxy.requests.count == 2, "\(name)")
        // The refetched answer was stored again, whole.
        #expect(await live.client(key).look(language: "de").source == .cache, "\(name)")
    }

    @Test func anotherAppsFileIsNotUsed() async throws {
        #expect(await live.client(key).look(language: "de").source == .network)
        let other = newKey()
        try FileManager.default.copyItem(atPath: file, toPath: live.cache.path + "/look-\(other)-de.cache")
        let look = await live.client(other, server: URL(string: "http://127.0.0.1:\(try freePort())")!).look(language: "de")
        #expect(look.source == .builtIn && look.discardedCache == "stored for another app")
    }

    @Test func theCacheIsBounded() async throws {
        var configuration = LookClient.Configuration()
        configuration.cacheLimits = CacheLimits(maxFileBytes: 8_192, maxTotalBytes: 8_192)
        let client = LookClient(server: live.proxyURL, appKey: key, cache: URL(fileURLWithPath: live.cache.path), configuration: configuration)
        for language in ["de", "fr", "ja", "ar", "ru"] { _ = await client.look(language: language) }
        // Each file is about 3 KB: at most two fit in 8 KB, and the newest is always kept.
        let files = live.cacheFiles
        #expect(files.count <= 2 && files.contains("look-\(key)-ru.cache"))
    }
}

/// The typed layers are the documented layer JSON (docs/look.md), written out by hand here.
@Suite(.timeLimit(.minutes(10))) struct AppLayersTests {
    @Test func typedLayersAreTheLayerJSON() throws {
        let code = CodeLayer(accent: AccentColor(light: RGBColor(red: 0x35, green: 0x50, blue: 0xE6), dark: RGBColor(red: 0x7D, green: 0x91, blue: 0xFF)),
                             corners: .soft, font: .rounded, headerStyle: .team, replyExpectation: .localized(["en": "Soon", "de": "Bald"]),
                             topics: [.billing, .custom(id: "orders", label: .text("Orders"), symbol: "cart", prefill: .text("Order #"))], appName: "Ledgerly")
        let expected = ##"{"accent":{"dark":"#7D91FF","light":"#3550E6"},"appName":"Ledgerly","corners":"soft","font":"rounded","headerStyle":"team","replyExpectation":{"de":"Bald","en":"Soon"},"topics":["billing",{"id":"orders","label":"Orders","prefill":"Order #","symbol":"cart"}]}"##
        #expect(JSONWriter.string(code.jsonValue) == expected)
        let inferred = InferredLayer(accent: AccentColor(RGBColor(red: 0xFF, green: 0xD6, blue: 0x0A)), appName: "Ledgerly", hasBundleIcon: true)
        #expect(JSONWriter.string(inferred.jsonValue) == ##"{"accent":"#FFD60A","appName":"Ledgerly","hasBundleIcon":true}"##)
    }

    @Test func theWireModelToleratesNewFieldsAndKeepsThem() throws {
        let body = #"{"appKey":"pk_live_x","dashboard":{},"direction":"rtl","feature":{"new":1},"locale":"ar","look":{"diagnostics":[{"code":"brand_new_code","field":"x","layer":"dashboard","message":"m","severity":"warning"}]},"publishedAt":"2026-12-01T00:00:00Z","texts":{"replyExpectation":"r","topics":[{"emoji":"x","id":"a","label":"A","prefill":null}],"z":true},"version":7}"#
        let answer = try FetchedLook(json: Array(body.utf8))
        #expect(answer.version == 7 && answer.direction == "rtl" && answer.texts.topics.first?.label == "A")
        #expect(answer.jsonBytes() == Array(body.utf8))
        #expect(answer.serverDiagnostics.map(\.code) == [.unknown("brand_new_code")])
        #expect(throws: WireFormatError.self) { try FetchedLook(json: Array(#"{"appKey":"k"}"#.utf8)) }
        #expect(throws: WireFormatError.self) { try FetchedLook(json: Array(body.replacingOccurrences(of: "\"version\":7", with: "\"version\":0").utf8)) }
    }
}
