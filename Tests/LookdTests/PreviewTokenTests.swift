import Foundation
@testable import LookdServer
import Testing

@Suite("Preview tokens: a draft fetched by the SDK on a device", .timeLimit(.minutes(10)))
struct PreviewTokenTests {
    static func draft(_ daemon: InProcessApp, _ key: String, _ layer: [String: Any], ifMatch: String? = nil) throws -> HTTPResult {
        try daemon.request("PUT", "/v1/apps/\(key)/look/draft", headers: [ifMatch.map { ("If-Match", $0) } ?? ("If-None-Match", "*")],
                           body: json(layer), admin: true)
    }

    static func mint(_ daemon: InProcessApp, _ key: String, _ body: [String: Any]? = nil) throws -> HTTPResult {
        try daemon.request("POST", "/v1/apps/\(key)/look/draft/preview-tokens", body: body.map(json), admin: true)
    }

    @Test("a token fetches the draft, marked and never cached; the plain fetch never shows it")
    func fetchesTheDraft() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true)
        #expect(try Self.mint(daemon, key).errorCode == "draft_unknown")
        #expect(try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(["accent": "#34C759"]), admin: true).status == 201)
        #expect(try Self.draft(daemon, key, ["accent": "#FF2D55", "corners": "square"]).status == 201)

        let before = Int(Date().timeIntervalSince1970)
        let minted = try Self.mint(daemon, key)
        #expect(minted.status == 201 && minted.header("Cache-Control") == "no-store")
        let token = try #require(minted.json["token"] as? String)
        #expect(minted.json["draftVersion"] as? Int == 1)
        #expect((minted.json["chatLink"] as? String) == "?pingfront=chat&preview=\(token)")
        // expiresAt is an hour ahead (to the second), in the store's UTC format.
        let expiresAt = try #require(minted.json["expiresAt"] as? String)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let expires = Int(try #require(formatter.date(from: expiresAt)).timeIntervalSince1970)
        #expect(expires >= before + 3_600 && expires <= before + 3_602)

        for answer in [try daemon.get("/v1/apps/\(key)/look?lang=de&preview=\(token)"),
                       try daemon.get("/v1/apps/\(key)/look?lang=de", headers: [("Lookd-Preview", token)])] {
            #expect(answer.status == 200)
            #expect(answer.header("Cache-Control") == "private, no-store")
            #expect(answer.header("ETag") == nil)
            #expect(answer.json["draft"] as? Bool == true && answer.json["version"] as? Int == 1)
            #expect(answer.json["locale"] as? String == "de")
            #expect((answer.json["dashboard"] as? [String: Any])?["accent"] as? String == "#FF2D55")
        }
        let published = try daemon.get("/v1/apps/\(key)/look?lang=de")
        #expect(published.json["draft"] == nil && (published.json["dashboard"] as? [String: Any])?["accent"] as? String == "#34C759")
        // A shared cache holding the published answer must not give it to a request carrying a token in the field
        // (RFC 9111 §4.1: Vary names it), on the 200 and on the 304 alike.
        #expect(published.header("Vary")?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains("Lookd-Preview") == true)
        let etag = try #require(published.header("ETag"))
        let revalidated = try daemon.get("/v1/apps/\(key)/look?lang=de", headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304 && revalidated.header("Vary")?.contains("Lookd-Preview") == true)
    }

    @Test("forged, other-app, superseded, revoked, expired and unsigned tokens get 403 and nothing about the draft")
    func refusals() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true), other = newKey(test: true)
        #expect(try Self.draft(daemon, key, ["accent": "#FF2D55", "appName": "Secret Draft"]).status == 201)
        #expect(try Self.draft(daemon, other, ["accent": "#FF2D55"]).status == 201)
        let token = try #require(try Self.mint(daemon, key).json["token"] as? String)
        let otherToken = try #require(try Self.mint(daemon, other).json["token"] as? String)

        func refused(_ token: String, for app: String = "") throws {
            let answer = try daemon.get("/v1/apps/\(app.isEmpty ? key : app)/look?preview=\(token)")
            #expect(answer.status == 403 && answer.errorCode == "preview_token_invalid", "\(token)")
            #expect(!answer.text.contains("Secret") && !answer.text.contains("FF2D55"))
        }
        let last = token.last == "0" ? "1" : "0"
        try refused(String(token.dropLast()) + last)                      // forged MAC
        try refused(token.replacingOccurrences(of: ".1.0.", with: ".2.0."))  // claims edited
        try refused("garbage")
        try refused(otherToken)                                            // another app's
        try refused(token, for: other)

        // Saving the draft supersedes its tokens; a new one works.
        #expect(try Self.draft(daemon, key, ["accent": "#FF2D56"], ifMatch: "\"d1\"").status == 200)
        try refused(token)
        let fresh = try #require(try Self.mint(daemon, key, ["ttlSeconds": 60]).json["token"] as? String)
        #expect(try daemon.get("/v1/apps/\(key)/look?preview=\(fresh)").status == 200)
        // Revoked.
        #expect(try daemon.request("DELETE", "/v1/apps/\(key)/look/draft/preview-tokens", admin: true).status == 204)
        try refused(fresh)

        // Expired: the service at a clock past the token's end (no waiting).
        let signing = try #require(daemon.services.auth.previewTokenKey)
        let (late, claims) = try daemon.services.looks.mintPreviewToken(appKey: key, lifetime: 60, key: signing, now: 1_000_000)
        #expect(throws: DraftServiceError.previewTokenInvalid(reason: "expired")) {
            try daemon.services.looks.previewFetch(appKey: key, token: late, key: signing, locale: .english, now: claims.expires)
        }
        #expect(try daemon.services.looks.previewFetch(appKey: key, token: late, key: signing, locale: .english, now: claims.expires - 1).isEmpty == false)

        // A daemon without an admin token accepts no token at all.
        let open = try InProcessApp(token: nil)
        #expect(try open.get("/v1/apps/\(key)/look?preview=\(fresh)").errorCode == "preview_token_invalid")
    }

    @Test("the lifetime is 1 s to 24 h")
    func lifetimes() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true)
        #expect(try Self.draft(daemon, key, ["accent": "#FF2D55"]).status == 201)
        #expect(try Self.mint(daemon, key, ["ttlSeconds": 86_401]).errorCode == "parameter_invalid")
        #expect(try Self.mint(daemon, key, ["ttlSeconds": 0]).errorCode == "parameter_invalid")
        #expect(try Self.mint(daemon, key, ["ttlSeconds": "1h"]).errorCode == "parameter_invalid")
        #expect(try daemon.request("POST", "/v1/apps/\(key)/look/draft/preview-tokens", body: Array("[]".utf8), admin: true).errorCode == "json_invalid")
        #expect(try Self.mint(daemon, key, ["ttlSeconds": 86_400]).status == 201)
        #expect(try daemon.request("POST", "/v1/apps/\(key)/look/draft/preview-tokens", body: json(["ttlSeconds": 60])).errorCode == "unauthorized")
    }

    @Test("over the wire, the engine's response cache never answers a request that carries a preview token")
    func engineTableSkipsPreviews() throws {
        let app = try ResponseCacheTests.Fixture()
        let key = newKey()
        let target = "/v1/apps/\(key)/look?lang=de"
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        #expect(try app.send("GET", target).status == 200)
        #expect(try app.send("GET", target).status == 200)
        #expect(app.answered == [1, 0, 0, 0])
        let refused = try app.send("GET", target, [("Lookd-Preview", "pv1.forged")])
        #expect(refused.status == 403 && refused.errorCode == "preview_token_invalid")
        #expect(refused.header("Cache-Control") == nil || refused.header("Cache-Control")?.contains("public") == false)
        #expect(app.answered == [1, 0, 0, 0])
    }
}
