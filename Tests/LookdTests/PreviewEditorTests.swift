import Foundation
@testable import LookdServer
import LookResolver
import Testing

@Suite("The live look editor page", .timeLimit(.minutes(10)))
struct PreviewEditorTests {
    @Test("a self-contained page whose one script is allowed by its hash alone; controls set from the starting layer")
    func page() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true)
        let layer: [String: Any] = ["accent": ["light": "#0000EE", "dark": "#FFD60A"], "corners": "soft", "appName": "\"><script>alert(1)</script>"]
        #expect(try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(layer), admin: true).status == 201)
        let answer = try daemon.get("/v1/preview/editor?app=\(key)")
        #expect(answer.status == 200 && answer.header("Cache-Control") == "no-store" && answer.header("X-Content-Type-Options") == "nosniff")
        let html = answer.text
        let policy = try #require(answer.header("Content-Security-Policy"))
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"\(policy)\">"))
        for directive in ["default-src 'none'", "connect-src 'self'", "require-trusted-types-for 'script'", "form-action 'none'"] {
            #expect(policy.contains(directive), "\(directive)")
        }
        // Exactly one script, inline, and the policy names its SHA-256 (CSP's 'sha256-<base64>' of the text).
        #expect(html.components(separatedBy: "<script").count == 2)
        let script = try #require(html.components(separatedBy: "<script>").last?.components(separatedBy: "</script>").first)
        let digest = Data(Crypto.sha256(Array(script.utf8))).base64EncodedString()
        #expect(policy.contains("script-src 'sha256-\(digest)';"))
        #expect(!script.contains("innerHTML") && !script.contains("insertAdjacentHTML") && !script.contains("eval("))
        #expect(!html.contains("http://") && !html.contains("https://"), "nothing may load from outside")
        // The team's text is escaped in the phones and in the layer the script starts from.
        #expect(html.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("data-layer=\"{&quot;accent&quot;:{&quot;dark&quot;:&quot;#FFD60A&quot;,&quot;light&quot;:&quot;#0000EE&quot;}"))
        // Controls from the layer: both accents, the split checked, soft corners, the rest not set.
        #expect(html.contains("data-role=\"accent-hex\" value=\"#0000EE\"") && html.contains("data-role=\"accent-dark-hex\" value=\"#FFD60A\""))
        #expect(html.contains("data-role=\"accent-dark-on\" checked"))
        #expect(html.contains("<option value=\"soft\" selected>"))
        #expect(html.contains("<option value=\"\" selected>not set</option>"))
        // Four phones by default, each with a contact header per style, the look's own shown.
        #expect(html.components(separatedBy: "<section class=\"phone\" data-role=\"phone\"").count - 1 == 4)
        #expect(html.components(separatedBy: "data-role=\"header\" data-style=\"team\">").count - 1 == 4)
        #expect(html.components(separatedBy: "data-role=\"header\" data-style=\"person\" hidden>").count - 1 == 4)
        #expect(html.contains("--radius: 12px"))
    }

    @Test("a draft through a preview token; the defaults; bad input")
    func startsAndErrors() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true)
        #expect(try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(["corners": "soft"]), admin: true).status == 201)
        #expect(try daemon.request("PUT", "/v1/apps/\(key)/look/draft", headers: [("If-None-Match", "*")], body: json(["corners": "square"]), admin: true).status == 201)
        let token = try #require(try daemon.request("POST", "/v1/apps/\(key)/look/draft/preview-tokens", admin: true).json["token"] as? String)
        let draft = try daemon.get("/v1/preview/editor?app=\(key)&preview=\(token)&appearance=light&lang=ar")
        #expect(draft.status == 200 && draft.header("Content-Language") == "ar")
        #expect(draft.text.contains("<option value=\"square\" selected>") && draft.text.contains("--radius: 6px"))
        #expect(draft.text.contains("?pingfront=chat&amp;preview=\(token)"))
        #expect(draft.text.contains("lang=\"ar\" dir=\"rtl\""), "the phones in the asked language; the controls stay English")
        #expect(draft.text.components(separatedBy: "<section class=\"phone\" data-role=\"phone\"").count - 1 == 1)

        let defaults = try daemon.get("/v1/preview/editor")
        #expect(defaults.status == 200 && defaults.text.contains("data-layer=\"{}\""))
        #expect(defaults.text.contains("data-role=\"accent-hex\" value=\"\""))

        #expect(try daemon.get("/v1/preview/editor?app=\(key)&preview=pv1.forged").errorCode == "preview_token_invalid")
        #expect(try daemon.get("/v1/preview/editor?preview=\(token)").errorCode == "parameter_invalid")
        #expect(try daemon.get("/v1/preview/editor?app=pk_live_nope").errorCode == "key_invalid")
        #expect(try daemon.get("/v1/preview/editor?app=\(newKey())").errorCode == "app_unknown")
        #expect(try daemon.get("/v1/preview/editor?appearance=sepia").errorCode == "appearance_invalid")
        #expect(try daemon.get("/v1/preview/editor?lang=../x").errorCode == "lang_invalid")
    }
}
