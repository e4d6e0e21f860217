import Foundation
import LookResolver
import Testing

@Suite("The accessibility report over HTTP", .timeLimit(.minutes(10)))
struct ReportRouteTests {
    @Test("a published app's report: pairs in the four palettes with WCAG and APCA, CVD, adjustments")
    func publishedReport() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true)
        // iOS systemRed: white on it is 3.55:1, so the light bubble is deepened (to #E91D19, docs: hue kept).
        let published = try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(["accent": "#FF3B30"]), admin: true)
        #expect(published.status == 201)
        let answer = try daemon.get("/v1/apps/\(key)/look/report")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(answer.header("Cache-Control") == "no-store")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        #expect(report["appKey"] as? String == key && report["version"] as? Int == 1 && report["draft"] as? Bool == false)
        let pairs = try #require(report["pairs"] as? [[String: Any]])
        #expect(pairs.count == 20)
        let bubble = try #require(pairs.first { $0["appearance"] as? String == "light" && $0["role"] as? String == "bubbleText" })
        #expect(bubble["foreground"] as? String == "#FFFFFF")
        // An independent check of the figure: the WCAG formula by hand on the colours the report names.
        let backgroundHex = try #require(bubble["background"] as? String)
        let background = try #require(RGBColor(hex: backgroundHex))
        let expected = wcagRatio(.white, background)
        let shown = try #require(bubble["wcag"] as? Double)
        #expect(shown <= expected && expected - shown < 0.001, "cut, never rounded up")
        #expect(shown >= 4.5 && bubble["level"] as? String == "AA")
        #expect((bubble["apcaLc"] as? Double ?? 0) < 0, "light text on a dark fill: negative Lc")
        let adjustment = try #require(bubble["adjustment"] as? [String: Any])
        #expect(adjustment["original"] as? String == "#FF3B30" && adjustment["role"] as? String == "bubbleFill")
        #expect(Set(pairs.compactMap { $0["appearance"] as? String }) == ["light", "dark", "increasedContrast.light", "increasedContrast.dark"])
        let cvd = try #require(report["cvd"] as? [String: Any])
        #expect(Set(cvd.keys) == ["protanopia", "deuteranopia", "tritanopia"])
        #expect((report["adjustments"] as? [Any])?.isEmpty == false)
    }

    @Test("a dark red accent's bubbles are flagged red/green-only in dark mode")
    func redGreenFlag() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true)
        _ = try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(["accent": "#8B0000"]), admin: true)
        let body = try daemon.get("/v1/apps/\(key)/look/report").body
        let report = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let warnings = try #require((report["summary"] as? [String: Any])?["warnings"] as? [[String: Any]])
        #expect(warnings.contains { $0["code"] as? String == "red_green_only" && ($0["message"] as? String)?.contains("protanopia, dark") == true })
    }

    @Test("HTML by ?format=html or Accept; errors")
    func htmlAndErrors() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true)
        _ = try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(["accent": "#FFD60A"]), admin: true)
        let page = try daemon.get("/v1/apps/\(key)/look/report?format=html")
        #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
        #expect(page.text.components(separatedBy: "data-role=\"pair\"").count == 21)
        #expect(!page.text.contains("<script"))
        let byAccept = try daemon.get("/v1/apps/\(key)/look/report", headers: [("Accept", "text/html,application/xhtml+xml")])
        #expect(byAccept.header("Content-Type") == "text/html; charset=utf-8")
        #expect(try daemon.get("/v1/apps/\(key)/look/report?format=xml").errorCode == "parameter_invalid")
        #expect(try daemon.get("/v1/apps/pk_live_nope/look/report").errorCode == "key_invalid")
        #expect(try daemon.get("/v1/apps/\(newKey())/look/report").errorCode == "app_unknown")
    }

    /// WCAG 2.x's ratio written out here from the definition (docs/design.md#contrast-the-wcag-formula-and-its-thresholds), not LookResolver's.
    func wcagRatio(_ a: RGBColor, _ b: RGBColor) -> Double {
        func channel(_ value: UInt8) -> Double {
            let c = Double(value) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        func luminance(_ color: RGBColor) -> Double { 0.2126 * channel(color.red) + 0.7152 * channel(color.green) + 0.0722 * channel(color.blue) }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }
}
