import Foundation
import Testing

@Suite("Locales and strings over HTTP", .timeLimit(.minutes(10)))
struct StringsRouteTests {
    @Test func localesAndNegotiation() throws {
        let daemon = try InProcessApp()
        let real = try #require(try daemon.get("/v1/locales").json["locales"] as? [[String: Any]])
        #expect(real.count == 50)
        #expect(real.allSatisfy { $0["pseudo"] as? Bool == false })
        #expect(try daemon.get("/v1/locales?pseudo=maybe").status == 400)
        let locales = try #require(try daemon.get("/v1/locales?pseudo=true").json["locales"] as? [[String: Any]])
        #expect(locales.count == 52)
        #expect(locales.prefix(50).allSatisfy { $0["pseudo"] as? Bool == false })
        #expect(locales.suffix(2).map { $0["locale"] as? String } == ["en-XA", "ar-XB"])
        #expect(locales.suffix(2).allSatisfy { $0["pseudo"] as? Bool == true })
        #expect(locales.last?["direction"] as? String == "rtl")
        let arabic = try #require(locales.first { $0["locale"] as? String == "ar" })
        #expect(arabic["direction"] as? String == "rtl")
        #expect((arabic["pluralCategories"] as? [String])?.count == 6)

        let mexico = try daemon.get("/v1/locales/match?lang=es-MX")
        #expect(mexico.json["locale"] as? String == "es-419")
        #expect(mexico.json["fallbackChain"] as? [String] == ["es-419", "es", "en"])
        #expect(mexico.header("Content-Language") == "es-419")
        let header = try daemon.get("/v1/locales/match", headers: [("Accept-Language", "zh-TW,en;q=0.5")])
        #expect(header.json["locale"] as? String == "zh-Hant")
        let explicitWins = try daemon.get("/v1/locales/match?lang=pt-AO", headers: [("Accept-Language", "de")])
        #expect(explicitWins.json["locale"] as? String == "pt-PT")
        let nothing = try daemon.get("/v1/locales/match?lang=xx")
        #expect(nothing.json["locale"] as? String == "en")
        #expect(nothing.json["matched"] as? Bool == false)
        let traversal = try daemon.get("/v1/locales/match?lang=../../etc/passwd")
        #expect(traversal.status == 400)
        #expect(traversal.errorCode == "lang_invalid")
    }

    @Test func catalogWithETag() throws {
        let daemon = try InProcessApp()
        let hebrew = try daemon.get("/v1/strings?lang=iw")
        #expect(hebrew.status == 200)
        #expect(hebrew.header("Content-Language") == "he")
        #expect(hebrew.json["direction"] as? String == "rtl")
        let messages = try #require(hebrew.json["messages"] as? [String: [String: Any]])
        #expect(messages.count >= 90)
        #expect(messages["composer.placeholder"]?["pattern"] is String)
        let etag = try #require(hebrew.header("ETag"))
        #expect(try daemon.get("/v1/strings?lang=he", headers: [("If-None-Match", etag)]).status == 304)
        #expect(try daemon.get("/v1/strings?lang=ar", headers: [("If-None-Match", etag)]).status == 200)
        // A control character in a query value is refused by the route too (the engine already refuses an escaped
        // one in the target on the wire; WireTests), never read as a shorter tag.
        #expect(try daemon.get("/v1/strings?lang=a%00b").errorCode == "lang_invalid")
    }

    @Test func formatOneAndABatch() throws {
        let daemon = try InProcessApp()
        let one = try daemon.request("POST", "/v1/strings/format", body: json(["locale": "ru", "key": "thread.unread", "arguments": ["count": 5]]))
        #expect(one.status == 200)
        #expect(one.json["text"] as? String == "5 непрочитанных сообщений")
        let batch = try daemon.request("POST", "/v1/strings/format", body: json([
            "locale": "de", "messages": [["key": "thread.unread", "arguments": ["count": 1]], ["key": "delivery.read"]],
        ] as [String: Any]))
        let texts = (batch.json["messages"] as? [[String: Any]])?.compactMap { $0["text"] as? String }
        #expect(texts?.first == "1 ungelesene Nachricht")
        #expect(texts?.count == 2)
        let unknown = try daemon.request("POST", "/v1/strings/format", body: json(["locale": "de", "key": "no.such.key"]))
        #expect(unknown.status == 404)
        #expect(unknown.errorCode == "key_unknown")
        let wrongType = try daemon.request("POST", "/v1/strings/format", body: json(["locale": "de", "key": "thread.unread", "arguments": ["count": "many"]]))
        #expect(wrongType.status == 400)
        #expect(wrongType.errorCode == "format_failed")
        let malformed = try daemon.request("POST", "/v1/strings/format", body: Array("{\"key\":".utf8))
        #expect(malformed.errorCode == "json_invalid")
    }

    @Test func lookFetchCarriesTheTextsOfTheNegotiatedLocale() throws {
        let daemon = try InProcessApp()
        let key = newKey()
        let layer: [String: Any] = ["replyExpectation": ["en": "Back in an hour", "de": "In einer Stunde zurück"],
                                    "topics": ["billing", ["id": "extra", "label": ["en": "Extra", "de": "Mehr"], "symbol": "star"]]]
        #expect(try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(layer), admin: true).status == 201)
        let german = try daemon.get("/v1/apps/\(key)/look?lang=de-AT")
        #expect(german.json["locale"] as? String == "de")
        // ?lang= named the language: the body's locale says what it resolved to, no Content-Language (docs/http-api.md).
        #expect(german.header("Content-Language") == nil)
        let texts = try #require(german.json["texts"] as? [String: Any])
        #expect(texts["replyExpectation"] as? String == "In einer Stunde zurück")
        let topics = try #require(texts["topics"] as? [[String: Any]])
        #expect(topics.map { $0["id"] as? String } == ["billing", "extra"])
        #expect(topics[1]["label"] as? String == "Mehr")
        let arabic = try daemon.get("/v1/apps/\(key)/look", headers: [("Accept-Language", "ar-EG")])
        #expect(arabic.json["direction"] as? String == "rtl")
        #expect(arabic.header("ETag") != german.header("ETag"))
        // The preset's label comes from the Arabic catalog, not from English.
        let arabicLabel = ((arabic.json["texts"] as? [String: Any])?["topics"] as? [[String: Any]])?.first?["label"] as? String
        let englishLabel = ((try daemon.get("/v1/apps/\(key)/look?lang=en").json["texts"] as? [String: Any])?["topics"] as? [[String: Any]])?.first?["label"] as? String
        #expect(arabicLabel != nil && arabicLabel != englishLabel)
    }

    @Test("the pseudo-locales over HTTP: served by their exact tag, never negotiated from a real one")
    func pseudoLocales() throws {
        let daemon = try InProcessApp()
        let accented = try daemon.get("/v1/strings?lang=en-XA")
        #expect(accented.status == 200)
        #expect(accented.header("Content-Language") == "en-XA")
        #expect(accented.json["locale"] as? String == "en-XA")
        #expect(accented.json["direction"] as? String == "ltr")
        let messages = try #require(accented.json["messages"] as? [String: [String: Any]])
        let english = try #require(try daemon.get("/v1/strings?lang=en").json["messages"] as? [String: [String: Any]])
        #expect(Set(messages.keys) == Set(english.keys))
        let placeholder = try #require(messages["composer.placeholder"]?["pattern"] as? String)
        #expect(placeholder.hasPrefix("[") && placeholder != english["composer.placeholder"]?["pattern"] as? String)
        #expect(try daemon.get("/v1/strings?lang=ar-XB").json["direction"] as? String == "rtl")
        #expect(try daemon.get("/v1/strings", headers: [("Accept-Language", "de, en-XA")]).header("Content-Language") == "de")
        #expect(try daemon.get("/v1/locales/match?lang=en-US").json["locale"] as? String == "en")

        let formatted = try daemon.request("POST", "/v1/strings/format", body: json(["locale": "en-XA", "key": "thread.unread", "arguments": ["count": 5]]))
        #expect(formatted.status == 200)
        #expect(formatted.json["locale"] as? String == "en-XA")
        let text = try #require(formatted.json["text"] as? String)
        let plain = try daemon.request("POST", "/v1/strings/format", body: json(["locale": "en", "key": "thread.unread", "arguments": ["count": 5]]))
        #expect(text.contains("5") && text.hasPrefix("[") && text.count > (plain.json["text"] as? String ?? "").count)
        let bidi = try daemon.request("POST", "/v1/strings/format", body: json(["locale": "ar-XB", "key": "thread.unread", "arguments": ["count": 5]]))
        #expect(bidi.json["direction"] as? String == "rtl")
        #expect((bidi.json["text"] as? String)?.unicodeScalars.contains("\u{202E}") == true)
    }

    @Test("the SDK's look fetch with ?lang=en-XA carries the look's texts in en-XA")
    func lookFetchInAPseudoLocale() throws {
        let daemon = try InProcessApp()
        let key = newKey()
        #expect(try daemon.request("PUT", "/v1/apps/\(key)/look", headers: [("If-None-Match", "*")], body: json(["topics": ["billing"]]), admin: true).status == 201)
        let english = try daemon.get("/v1/apps/\(key)/look?lang=en")
        let accented = try daemon.get("/v1/apps/\(key)/look?lang=en-XA")
        #expect(accented.json["locale"] as? String == "en-XA")
        #expect(accented.header("Content-Language") == nil, "?lang= named it: the body's locale says it")
        #expect(try daemon.get("/v1/apps/\(key)/look", headers: [("Accept-Language", "en-XA")]).header("Content-Language") == "en-XA")
        let label = ((accented.json["texts"] as? [String: Any])?["topics"] as? [[String: Any]])?.first?["label"] as? String
        let englishLabel = ((english.json["texts"] as? [String: Any])?["topics"] as? [[String: Any]])?.first?["label"] as? String
        #expect(label?.hasPrefix("[") == true && label != englishLabel)
        #expect(accented.header("ETag") != english.header("ETag"))
    }
}
