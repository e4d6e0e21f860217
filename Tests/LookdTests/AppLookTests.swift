import Foundation
import Testing

@Suite("App looks: fetch, publish, history, rollback, preconditions, admin", .timeLimit(.minutes(10)))
struct AppLookTests {
    @Test func publishFetchRevalidateRollback() throws {
        let daemon = try InProcessApp()
        let key = newKey()
        let path = "/v1/apps/\(key)/look"

        #expect(try daemon.get(path).errorCode == "app_unknown")

        let first = try daemon.request("PUT", path, headers: [("If-None-Match", "*")], body: json(["accent": "#FF5500", "corners": "square"]), admin: true)
        #expect(first.status == 201)
        #expect(first.json["version"] as? Int == 1)

        let fetched = try daemon.get(path)
        #expect(fetched.status == 200)
        #expect(fetched.json["version"] as? Int == 1)
        #expect((fetched.json["dashboard"] as? [String: Any])?["corners"] as? String == "square")
        #expect(fetched.json["look"] is [String: Any])
        let etag = try #require(fetched.header("ETag"))
        #expect(etag.hasPrefix("\"v1-"))
        #expect(!etag.hasPrefix("W/"))
        // docs/http-api.md: storable by a shared cache through max-age alone (RFC 9111 §3).
        #expect(fetched.header("Cache-Control") == "max-age=30,stale-while-revalidate=60")

        let again = try daemon.get(path)
        #expect(again.body == fetched.body)
        #expect(again.header("ETag") == etag)

        let notModified = try daemon.get(path, headers: [("If-None-Match", etag)])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("ETag") == etag)

        let second = try daemon.request("PUT", path, headers: [("If-Match", etag)], body: json(["accent": "#0055FF", "corners": "round"]), admin: true)
        #expect(second.status == 200)
        #expect(second.json["version"] as? Int == 2)

        let changed = try daemon.get(path, headers: [("If-None-Match", etag)])
        #expect(changed.status == 200)
        #expect(changed.json["version"] as? Int == 2)
        #expect((changed.json["dashboard"] as? [String: Any])?["corners"] as? String == "round")
        #expect(changed.header("ETag") != etag)

        let rollback = try daemon.request("POST", path + "/rollback?to=1", headers: [("If-Match", "\"v2\"")], admin: true)
        #expect(rollback.status == 201)
        #expect(rollback.json["version"] as? Int == 3)
        #expect(rollback.json["rolledBackFrom"] as? Int == 1)

        let rolledBack = try daemon.get(path)
        #expect(rolledBack.json["version"] as? Int == 3)
        #expect((rolledBack.json["dashboard"] as? [String: Any])?["corners"] as? String == "square")
        #expect((rolledBack.json["look"] as? NSDictionary) == (fetched.json["look"] as? NSDictionary))

        let history = try daemon.get(path + "/history", admin: true)
        #expect(history.status == 200)
        #expect(history.json["currentVersion"] as? Int == 3)
        let versions = try #require(history.json["versions"] as? [[String: Any]])
        #expect(versions.map { $0["version"] as? Int } == [3, 2, 1])
        #expect(versions[0]["rolledBackFrom"] as? Int == 1)
        #expect(try daemon.get(path + "/history?limit=1", admin: true).json["versions"].map { ($0 as? [Any])?.count } == 1)

        let unknownVersion = try daemon.request("POST", path + "/rollback?to=9", admin: true)
        #expect(unknownVersion.status == 404)
        #expect(unknownVersion.errorCode == "version_unknown")
        let noTarget = try daemon.request("POST", path + "/rollback", admin: true)
        #expect(noTarget.status == 400)
    }

    @Test func staleAndMissingPreconditions() throws {
        let daemon = try InProcessApp()
        let key = newKey()
        let path = "/v1/apps/\(key)/look"
        let layer = json(["headerStyle": "team"])

        let none = try daemon.request("PUT", path, body: layer, admin: true)
        #expect(none.status == 428)
        #expect(none.errorCode == "precondition_required")

        let notYet = try daemon.request("PUT", path, headers: [("If-Match", "\"v1\"")], body: layer, admin: true)
        #expect(notYet.status == 412)

        #expect(try daemon.request("PUT", path, headers: [("If-None-Match", "*")], body: layer, admin: true).status == 201)
        let exists = try daemon.request("PUT", path, headers: [("If-None-Match", "*")], body: layer, admin: true)
        #expect(exists.status == 412)
        #expect(exists.errorCode == "version_conflict")

        #expect(try daemon.request("PUT", path, headers: [("If-Match", "\"v1\"")], body: layer, admin: true).status == 200)
        let stale = try daemon.request("PUT", path, headers: [("If-Match", "\"v1\"")], body: json(["headerStyle": "app"]), admin: true)
        #expect(stale.status == 412)
        #expect(stale.errorCode == "version_conflict")
        #expect(stale.header("ETag") == "\"v2\"")
        let weak = try daemon.request("PUT", path, headers: [("If-Match", "W/\"v2\"")], body: layer, admin: true)
        #expect(weak.status == 412)
        let star = try daemon.request("PUT", path, headers: [("If-Match", "*")], body: layer, admin: true)
        #expect(star.status == 428)

        // The stale publish changed nothing.
        let current = try daemon.get(path)
        #expect(current.json["version"] as? Int == 2)
        #expect((current.json["dashboard"] as? [String: Any])?["headerStyle"] as? String == "team")
    }

    @Test func adminRoutesNeedTheToken() throws {
        let key = newKey()
        let path = "/v1/apps/\(key)/look"
        do {
            let open = try InProcessApp(token: nil)
            let refused = try open.request("PUT", path, headers: [("If-None-Match", "*")], body: json([:]), admin: true)
            #expect(refused.status == 403)
            #expect(refused.errorCode == "forbidden")
            #expect(try open.get(path + "/history", admin: true).status == 403)
        }
        let daemon = try InProcessApp()
        let missing = try daemon.request("PUT", path, headers: [("If-None-Match", "*")], body: json([:]))
        #expect(missing.status == 401)
        #expect(missing.errorCode == "unauthorized")
        #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        let wrong = try daemon.request("PUT", path, headers: [("If-None-Match", "*"), ("Authorization", "Bearer \(adminToken)x")], body: json([:]))
        #expect(wrong.status == 401)
        let prefix = try daemon.request("PUT", path, headers: [("If-None-Match", "*"), ("Authorization", "Bearer \(adminToken.dropLast())")], body: json([:]))
        #expect(prefix.status == 401)
        #expect(try daemon.get(path + "/history").status == 401)
        #expect(try daemon.request("POST", path + "/rollback?to=1").status == 401)
        // Reads need no token.
        #expect(try daemon.get(path).status == 404)
    }

    @Test func malformedAndInvalidLayersChangeNothing() throws {
        let daemon = try InProcessApp()
        let key = newKey()
        let path = "/v1/apps/\(key)/look"
        #expect(try daemon.request("PUT", path, headers: [("If-None-Match", "*")], body: json(["accent": "#336699"]), admin: true).status == 201)

        let malformed = try daemon.request("PUT", path, headers: [("If-Match", "\"v1\"")], body: Array("{\"accent\": ".utf8), admin: true)
        #expect(malformed.status == 400)
        #expect(malformed.errorCode == "json_invalid")

        let notObject = try daemon.request("PUT", path, headers: [("If-Match", "\"v1\"")], body: Array("[1,2]".utf8), admin: true)
        #expect(notObject.status == 400)

        let form = try daemon.request("PUT", path, headers: [("If-Match", "\"v1\""), ("Content-Type", "text/plain")], body: Array("{}".utf8), admin: true, json: false)
        #expect(form.status == 415)

        let invalid = try daemon.request("PUT", path, headers: [("If-Match", "\"v1\"")], body: json(["accent": "not-a-colour"]), admin: true)
        #expect(invalid.status == 422)
        #expect(invalid.errorCode == "look_invalid")
        let details = try #require((invalid.json["error"] as? [String: Any])?["details"] as? [[String: Any]])
        #expect(details.contains { $0["field"] as? String == "accent" && $0["severity"] as? String == "error" })

        let topics = (0..<40).map { ["id": "t\($0)", "label": "Topic \($0)"] }
        let tooMany = try daemon.request("PUT", path, headers: [("If-Match", "\"v1\"")], body: json(["topics": topics]), admin: true)
        #expect(tooMany.status == 400)
        #expect(tooMany.errorCode == "limit_exceeded")

        let current = try daemon.get(path)
        #expect(current.json["version"] as? Int == 1)
        #expect((current.json["dashboard"] as? [String: Any])?["accent"] as? String == "#336699")
    }

    @Test func appKeysAndLanguageTagsAreValidatedBeforeAnyLookup() throws {
        let daemon = try InProcessApp()
        let key = newKey(test: true)
        #expect(key.hasPrefix("pk_test_"))
        // One mistyped character: the check characters no longer match.
        var characters = Array(key)
        characters[12] = characters[12] == "a" ? "b" : "a"
        let typo = String(characters)
        let refused = try daemon.get("/v1/apps/\(typo)/look")
        #expect(refused.status == 400)
        #expect(refused.errorCode == "key_invalid")
        for bad in ["pk_live_short", "sk_live_" + key.dropFirst(8), key.uppercased(), key + "0"] {
            #expect(try daemon.get("/v1/apps/\(bad)/look").errorCode == "key_invalid", "\(bad)")
        }
        #expect(try daemon.get("/v1/apps/\(key)/look").errorCode == "app_unknown")

        let traversal = try daemon.get("/v1/apps/\(key)/look?lang=../../etc/passwd")
        #expect(traversal.status == 400)
        #expect(traversal.errorCode == "lang_invalid")
        let encoded = try daemon.get("/v1/apps/\(key)/look?lang=%2E%2E%2F%2E%2E%2Fetc%2Fpasswd")
        #expect(encoded.errorCode == "lang_invalid")
        #expect(try daemon.get("/v1/apps/\(key)/look?lang=pt-BR").errorCode == "app_unknown")
    }

    @Test func resolvePreviewTakesLayersAndStoresNothing() throws {
        let daemon = try InProcessApp()
        let body = json(["dashboard": ["accent": "#FF2D55"], "code": ["corners": "soft"], "inferred": ["appName": "Ledgerly"]])
        let first = try daemon.request("POST", "/v1/looks/resolve", body: body)
        #expect(first.status == 200)
        #expect(!first.json.isEmpty)
        let second = try daemon.request("POST", "/v1/looks/resolve", body: body)
        #expect(first.body == second.body)
        let malformed = try daemon.request("POST", "/v1/looks/resolve", body: Array("{\"dashboard\": [".utf8))
        #expect(malformed.status == 400)
        #expect(malformed.errorCode == "json_invalid")
        let empty = try daemon.request("POST", "/v1/looks/resolve")
        #expect(empty.status == 400)
    }

    @Test func keygenMakesCheckableKeys() throws {
        let (status, output, _) = try runLookd(["keygen", "--count", "50"])
        #expect(status == 0)
        let keys = output.split(separator: "\n").map(String.init)
        #expect(keys.count == 50)
        #expect(Set(keys).count == 50)
        for key in keys {
            #expect(key.count == 41)
            #expect(key.hasPrefix("pk_live_"))
            #expect(key.dropFirst(8).allSatisfy { "0123456789abcdefghjkmnpqrstvwxyz".contains($0) })
        }
        #expect(try runLookd(["keygen", "--check", keys[0]]).0 == 0)
        var swapped = Array(keys[0])
        swapped.swapAt(20, 21)
        if swapped[20] != swapped[21] {
            #expect(try runLookd(["keygen", "--check", String(swapped)]).0 == 1)
        }
    }
}
