import Foundation
@testable import LookdServer
import LookResolver
import Testing

@Suite("The preview matrix page", .timeLimit(.minutes(10)))
struct PreviewMatrixTests {
    @Test("published and draft side by side across languages, palettes, text sizes and CVD; errors")
    func matrix() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true)
        #expect(try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(["accent": "#34C759"]), admin: true).status == 201)
        let alone = try daemon.get("/v1/preview/matrix?app=\(key)")
        #expect(alone.status == 200 && alone.header("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
        #expect(alone.text.components(separatedBy: "data-role=\"phone\"").count - 1 == 25)
        #expect(!alone.text.contains("data-look=\"draft\"") && !alone.text.contains("<script"))

        #expect(try daemon.request("PUT", "/v1/apps/\(key)/look/draft", headers: [("If-None-Match", "*")], body: json(["accent": "#FF2D55"]), admin: true).status == 201)
        let token = try #require(try daemon.request("POST", "/v1/apps/\(key)/look/draft/preview-tokens", admin: true).json["token"] as? String)
        let page = try daemon.get("/v1/preview/matrix?app=\(key)&preview=\(token)").text
        #expect(page.components(separatedBy: "data-look=\"draft\"").count - 1 == 25)
        #expect(page.components(separatedBy: "data-look=\"published\"").count - 1 == 25)
        #expect(page.contains("?pingfront=chat&amp;preview=\(token)"))
        for needle in ["lang=\"en-XA\" dir=\"ltr\"", "lang=\"ar-XB\" dir=\"rtl\"", "lang=\"ar\" dir=\"rtl\"", "data-appearance=\"increased-dark\"",
                       "data-text-size=\"ax5\"", "data-text-size=\"large\"", "data-cvd=\"protanopia\"", "data-cvd=\"tritanopia\""] {
            #expect(page.contains(needle), "\(needle)")
        }
        // AX5 is 53 pt body text over the default 17 pt (iOS Dynamic Type): every text scales by 53/17.
        #expect(page.contains("--scale: \(53.0 / 17.0)"))
        // In dark, the draft's #FF2D55 tint is used as given (5.8:1 on black); a protanope sees it as simulated.
        let simulated = ColorVisionDeficiency.protanopia.simulate(try #require(RGBColor(hex: "#FF2D55")))
        #expect(page.contains("--tint: \(simulated.hex)"))

        #expect(try daemon.get("/v1/preview/matrix?app=\(key)&preview=pv1.forged").errorCode == "preview_token_invalid")
        #expect(try daemon.get("/v1/preview/matrix?preview=\(token)").errorCode == "parameter_invalid")
        #expect(try daemon.get("/v1/preview/matrix?app=\(newKey())").errorCode == "app_unknown")
        #expect(try daemon.get("/v1/preview/matrix").status == 200)
    }
}
