import Foundation
import Testing

@Suite("The look preview page over HTTP")
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
}
