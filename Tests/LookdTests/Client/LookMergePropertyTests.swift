import Foundation
import LookClient
import LookResolver
import StableJSON
import Testing

/// The client's merge is the server's: for generated dashboard, code and inferred layers, LookClient's local result
/// is byte-identical to what the daemon's `POST /v1/looks/resolve` answers for the same three layers (the daemon's
/// routes and services in process, with its palette cache and bounds), and a published layer fetched through
/// `GET /v1/apps/{key}/look` and decoded by the client's wire model merges to the same bytes.
@Suite(.timeLimit(.minutes(10)))
struct LookMergePropertyTests {
    let app: InProcessApp

    init() throws { app = try InProcessApp() }

    /// The daemon's resolve of the three layers (a layer absent when nil).
    func serverResolve(_ dashboard: JSONValue?, _ code: JSONValue?, _ inferred: JSONValue?) throws -> [UInt8] {
        var members: [String: JSONValue] = [:]
        if let dashboard { members["dashboard"] = dashboard }
        if let code { members["code"] = code }
        if let inferred { members["inferred"] = inferred }
        let result = try app.request("POST", "/v1/looks/resolve", body: JSONWriter.bytes(.object(members)))
        try #require(result.status == 200, "resolve answered \(result.status): \(result.text)")
        return result.body
    }

    @Test func generatedLayersMergeToTheServersBytes() throws {
        var generator = LayerGenerator(random: SeededGenerator(seed: 0x10C4_C11E))
        var withDiagnostics = 0, truncated = 0, localizedTexts = 0, topics = 0
        var hues: Set<Int> = []
        let cases = 3_000
        for index in 0..<cases {
            // One case in four only valid values (most such looks have no diagnostic).
            generator.validOnly = index % 4 == 1
            let dashboard = generator.layer(as: .dashboard)
            let layers = index % 4 == 0 ? generator.typedLayers() : AppLayers(codeJSON: generator.layer(as: .code), inferredJSON: generator.layer(as: .inferred))
            let local = LookMerge.resolve(dashboard: dashboard, layers: layers)
            let expected = try serverResolve(dashboard, layers.code, layers.inferred)
            #expect(local.jsonBytes() == expected, "case \(index): \(String(decoding: JSONWriter.bytes(.object(["dashboard": dashboard ?? .null, "code": layers.code ?? .null, "inferred": layers.inferred ?? .null])), as: UTF8.self))")
            if !local.diagnostics.isEmpty { withDiagnostics += 1 }
            if local.diagnostics.last?.code == .diagnosticsTruncated { truncated += 1 }
            if case .localized = local.replyExpectation.value { localizedTexts += 1 }
            if !local.topics.value.isEmpty { topics += 1 }
            hues.insert(Int(OKLCH(local.accent.value.light).hue / 30))
        }
        // The generator reaches every kind: clean looks, looks with ignored values, looks over the diagnostics bound
        // (the notice compared too), team texts in several languages, topics, accents in every 30° hue sector.
        #expect(withDiagnostics > 1_000 && withDiagnostics < cases - 300, "\(withDiagnostics) of \(cases)")
        #expect(truncated >= 40, "\(truncated) looks over the bound")
        #expect(localizedTexts >= 100 && topics >= 300, "\(localizedTexts) localized, \(topics) with topics")
        #expect(hues.count == 12, "\(hues.sorted())")
    }

    @Test func publishedLayersFetchedAndDecodedMergeToTheServersBytes() throws {
        var generator = LayerGenerator(random: SeededGenerator(seed: 0xFE7C4))
        var published = 0
        for index in 0..<400 where published < 150 {
            guard case .object? = generator.layer() else { continue }
            let dashboard = generator.layer() ?? .object([:])
            guard case .object = dashboard else { continue }
            let key = newKey()
            let put = try app.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: JSONWriter.bytes(dashboard), admin: true)
            // A layer with errors is refused at publish: only publishable layers reach devices.
            guard put.status == 201 else { continue }
            published += 1
            let language = ["de", "ar", "pt-BR", "es-MX", "zh-TW", "ja", "en"][index % 7]
            let fetch = try app.get("/v1/apps/\(key)/look?lang=\(language)")
            try #require(fetch.status == 200)
            let answer = try FetchedLook(json: fetch.body)
            // The typed wire model round-trips with the daemon's encoder.
            #expect(answer.jsonBytes() == fetch.body)
            #expect(answer.appKey == key && answer.version == 1)
            let layers = index % 2 == 0 ? generator.typedLayers() : AppLayers(codeJSON: generator.layer(), inferredJSON: generator.layer())
            let local = LookMerge.resolve(dashboard: answer.dashboard, layers: layers)
            #expect(local.jsonBytes() == (try serverResolve(dashboard, layers.code, layers.inferred)), "case \(index)")
            // With no app layers, the merge is the server's own dashboard-only look in the answer.
            #expect(JSONWriter.bytes(answer.look) == LookMerge.resolve(dashboard: answer.dashboard, layers: AppLayers()).jsonBytes())
        }
        #expect(published >= 100)
    }
}
