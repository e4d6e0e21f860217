import Foundation
import LookResolver
import Testing

@Suite("The look preview page over HTTP", .timeLimit(.minutes(10)))
struct PreviewRouteTests {
    @Test("a published app's preview: headers, direction, escaped team text, nothing loaded from outside")
    func publishedApp() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true)
        let layer: [String: Any] = [
            "accent": "#FFD60A", "appName": "<script>alert(1)</script>", "headerStyle": "app",
            "topics": [["id": "x", "label": "\"><img src=x onerror=alert(2)>"]],
        ]
        let published = try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(layer), admin: true)
        #expect(published.status == 201)

        let page = try daemon.get("/v1/preview?app=\(key)&lang=ar&appearance=light")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
        #expect(page.header("Content-Language") == "ar")
        let html = page.text
        #expect(html.contains("<html lang=\"ar\" dir=\"rtl\">"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        #expect(!html.contains("<script") && !html.contains("<img"))
        #expect(!html.contains("http://") && !html.contains("https://"), "nothing may load from outside")
        // The light palette only: the yellow accent keeps black text on it and a deepened tint.
        #expect(html.contains("data-appearance=\"light\"") && !html.contains("data-appearance=\"dark\""))
        #expect(html.contains("--fill: #FFD60A; --on-fill: #000000; --tint: #8B7403"))
    }

    @Test("a draft posted by the dashboard, the defaults, and bad input")
    func draftsAndErrors() throws {
        let daemon = try InProcessApp()
        let draft = try daemon.request("POST", "/v1/preview?lang=de", body: json(["dashboard": ["corners": "square", "font": "serif", "branding": false]]))
        #expect(draft.status == 200)
        #expect(draft.text.contains("<html lang=\"de\" dir=\"ltr\">"))
        #expect(draft.text.contains("--radius: 6px"))
        #expect(draft.text.contains("ui-serif"))
        #expect(!draft.text.contains("data-role=\"lockup\""), "branding off hides the lockup")
        #expect(draft.text.contains("data-appearance=\"light\"") && draft.text.contains("data-appearance=\"dark\""))

        let defaults = try daemon.get("/v1/preview", headers: [("Accept-Language", "ja-JP")])
        #expect(defaults.status == 200)
        #expect(defaults.text.contains("<html lang=\"ja\""))
        #expect(defaults.text.contains("data-role=\"lockup\""))

        #expect(try daemon.get("/v1/preview?appearance=purple").errorCode == "appearance_invalid")
        #expect(try daemon.get("/v1/preview?app=pk_live_nope").errorCode == "key_invalid")
        #expect(try daemon.get("/v1/preview?app=\(newKey())").errorCode == "app_unknown")
        #expect(try daemon.get("/v1/preview?lang=../../etc/passwd").errorCode == "lang_invalid")
        #expect(try daemon.request("POST", "/v1/preview", body: Array("{".utf8)).errorCode == "json_invalid")
    }

    @Test("a draft through a preview token: the draft's look, marked draft, with the chat link to open it on a phone")
    func draftThroughAPreviewToken() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true)
        #expect(try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(["corners": "soft"]), admin: true).status == 201)
        #expect(try daemon.request("PUT", "/v1/apps/\(key)/look/draft", headers: [("If-None-Match", "*")], body: json(["corners": "square"]), admin: true).status == 201)
        let token = try #require(try daemon.request("POST", "/v1/apps/\(key)/look/draft/preview-tokens", admin: true).json["token"] as? String)

        // Without the token: the published look (soft corners, 12 pt), no link, no draft.
        let published = try daemon.get("/v1/preview?app=\(key)&appearance=light").text
        #expect(published.contains("--radius: 12px") && !published.contains("data-role=\"chat-link\"") && !published.contains("data-look=\"draft\""))
        // With it: the draft (square corners, 6 pt), its phones marked, and the link (`&` escaped in HTML).
        let page = try daemon.get("/v1/preview?app=\(key)&appearance=both&preview=\(token)")
        #expect(page.status == 200 && page.header("Cache-Control") == "no-store")
        #expect(page.text.contains("--radius: 6px") && !page.text.contains("--radius: 12px"))
        #expect(page.text.components(separatedBy: "data-look=\"draft\"").count - 1 == 2)
        #expect(page.text.contains("data-role=\"chat-link\"") && page.text.contains("?pingfront=chat&amp;preview=\(token)</code>"))
        #expect(!page.text.contains("<script"))

        #expect(try daemon.get("/v1/preview?app=\(key)&preview=pv1.forged").errorCode == "preview_token_invalid")
        #expect(try daemon.get("/v1/preview?app=\(newKey(test: true))&preview=\(token)").errorCode == "preview_token_invalid")
        #expect(try daemon.get("/v1/preview?preview=\(token)").errorCode == "parameter_invalid")
        // Saving the draft ends the token: 403, and the answer says nothing about the draft.
        #expect(try daemon.request("PUT", "/v1/apps/\(key)/look/draft", headers: [("If-Match", "\"d1\"")], body: json(["corners": "round"]), admin: true).status == 200)
        let stale = try daemon.get("/v1/preview?app=\(key)&preview=\(token)")
        #expect(stale.status == 403 && stale.errorCode == "preview_token_invalid" && !stale.text.contains("round") && !stale.text.contains("radius"))
    }

    @Test("appearance=increased draws the 7:1 increased-contrast palette, light then dark; all shows the four")
    func increasedContrast() throws {
        let daemon = try InProcessApp()
        let draft: [String: Any] = ["dashboard": ["accent": "#34C759"]]
        let page = try daemon.request("POST", "/v1/preview?lang=en&appearance=increased", body: json(draft))
        #expect(page.status == 200)
        let phones = Self.phoneVariables(page.text)
        #expect(phones.map(\.name) == ["increased-light", "increased-dark"])
        let palette = Resolver().resolve(LookLayers(dashboard: .object(["accent": .string("#34C759")]))).palette
        for (phone, appearance) in zip(phones, [Appearance.light, .dark]) {
            let expected = palette.increasedContrast[appearance]
            #expect(phone.variables["--fill"] == expected.bubbleFill.hex && phone.variables["--tint"] == expected.tint.hex)
            if appearance == .light {
                #expect(phone.variables["--tint"] != palette.light.tint.hex, "a green tint on white is darkened further for 7:1")
            }
            // The pairs the page draws, measured from its CSS.
            for (foreground, background) in [("--on-fill", "--fill"), ("--tint", "--bg"), ("--text", "--bg"), ("--team-text", "--team-fill")] {
                let ratio = Contrast.ratio(try #require(phone.variables[foreground].flatMap(RGBColor.init(hex:))),
                                           try #require(phone.variables[background].flatMap(RGBColor.init(hex:))))
                #expect(ratio >= 7, "\(phone.name): \(foreground) on \(background) is \(ratio):1")
            }
        }
        #expect(page.text.contains("Light · Increased contrast"))

        let one = try daemon.request("POST", "/v1/preview?appearance=increased-dark", body: json(draft))
        #expect(Self.phoneVariables(one.text).map(\.name) == ["increased-dark"])
        let all = try daemon.request("POST", "/v1/preview?appearance=all", body: json(draft))
        #expect(Self.phoneVariables(all.text).map(\.name) == ["light", "dark", "increased-light", "increased-dark"])
        let standard = try daemon.request("POST", "/v1/preview?appearance=light", body: json(draft))
        #expect(Self.phoneVariables(standard.text).first?.variables["--fill"] == palette.light.bubbleFill.hex)
        #expect(try daemon.get("/v1/preview?appearance=increased-both").errorCode == "appearance_invalid")
        // The OpenAPI document lists every accepted value.
        let paths = try #require(try daemon.get("/openapi.json").json["paths"] as? [String: [String: Any]])
        let parameters = try #require((paths["/v1/preview"]?["get"] as? [String: Any])?["parameters"] as? [[String: Any]])
        let values = (parameters.first { $0["name"] as? String == "appearance" }?["schema"] as? [String: Any])?["enum"] as? [String]
        #expect(values == ["light", "dark", "both", "increased-light", "increased-dark", "increased", "all"])
    }

    @Test("the pseudo-locales render by their exact tag: en-XA accented and longer, ar-XB right to left")
    func pseudoLocales() throws {
        let daemon = try InProcessApp()
        let english = try daemon.get("/v1/preview?lang=en&appearance=light")
        let accented = try daemon.get("/v1/preview?lang=en-XA&appearance=light")
        #expect(accented.status == 200)
        #expect(accented.header("Content-Language") == "en-XA")
        #expect(accented.text.contains("<html lang=\"en-XA\" dir=\"ltr\">"))
        #expect(accented.text.utf8.count > english.text.utf8.count, "en-XA is longer than English")
        #expect(accented.text.contains("[") && accented.text.unicodeScalars.contains { $0.value > 0xBF && $0.value < 0x250 })
        let bidi = try daemon.get("/v1/preview?lang=ar-XB&appearance=light")
        #expect(bidi.header("Content-Language") == "ar-XB")
        #expect(bidi.text.contains("<html lang=\"ar-XB\" dir=\"rtl\">"))
        #expect(bidi.text.unicodeScalars.contains("\u{202E}"), "words are mirrored with right-to-left overrides")
        // A real tag never reaches a pseudo-locale.
        #expect(try daemon.get("/v1/preview?lang=en-US", headers: [("Accept-Language", "ar-XB")]).header("Content-Language") == "en")
    }

    /// Each phone's `data-appearance` and its CSS custom properties, in page order.
    private static func phoneVariables(_ html: String) -> [(name: String, variables: [String: String])] {
        html.components(separatedBy: "<section class=\"phone\"").dropFirst().map { section in
            let name = section.components(separatedBy: "data-appearance=\"").dropFirst().first?.components(separatedBy: "\"").first ?? ""
            let style = section.components(separatedBy: "style=\"").dropFirst().first?.components(separatedBy: "\"").first ?? ""
            var variables: [String: String] = [:]
            for declaration in style.components(separatedBy: "; ") {
                let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2 { variables[parts[0]] = parts[1] }
            }
            return (name, variables)
        }
    }
}
