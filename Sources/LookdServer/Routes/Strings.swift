import Foundation
import LookResolver
import Strings

/// The 50 locales, negotiation, catalogs and formatting (the Strings library over HTTP).
enum StringsRoutes {
    /// Most messages in one `POST /v1/strings/format` batch.
    static let maxBatch = 200

    static func register(into router: inout Router, app: AppServices) {
        let strings = app.strings
        router.add(Route("GET", "/v1/locales", doc: RouteDoc(
            summary: "The 50 locales: direction, native name, CLDR plural categories, fallback chain.",
            responses: [200: "the locales"])) { _ in
            Response.json(strings.localesBody, headers: [("Cache-Control", "public, max-age=3600")])
        })

        router.add(Route("GET", "/v1/locales/match", doc: RouteDoc(
            summary: "Negotiate one of the 50 for ?lang= (the SDK's explicit language) or the Accept-Language header; no match gives en.",
            responses: [200: "the negotiated locale", 400: "malformed lang (lang_invalid)"],
            query: ["lang": "BCP 47 language tag; beats Accept-Language"])) { request in
            let (locale, matched) = try strings.negotiate(request)
            let object: [String: Any] = [
                "locale": locale.identifier, "matched": matched, "direction": Localizer.direction(of: locale).rawValue,
                "fallbackChain": strings.localizer.fallbackChain(for: locale).map(\.identifier),
            ]
            let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return Response.json(Array(body), headers: [("Content-Language", locale.identifier), ("Vary", "Accept-Language"), ("Cache-Control", "no-store")])
        })

        router.add(Route("GET", "/v1/strings", doc: RouteDoc(
            summary: "The negotiated locale's catalog (every key: pattern and the catalog that served it), with its direction, plural categories and fallback chain. Strong ETag; If-None-Match gives 304.",
            responses: [200: "the catalog", 304: "not modified", 400: "malformed lang (lang_invalid)"],
            query: ["lang": "BCP 47 language tag; beats Accept-Language"])) { request in
            let (locale, _) = try strings.negotiate(request)
            let cached = strings.catalog(locale)
            let headers: [(name: String, value: String)] = [
                ("ETag", cached.etag), ("Content-Language", locale.identifier), ("Vary", "Accept-Language"),
                ("Cache-Control", "public, max-age=300"),
            ]
            if let match = request.header("if-none-match"), entityTags(match).contains(cached.etag) {
                return Response(status: 304, headers: headers)
            }
            return Response.json(cached.body, headers: headers)
        })

        router.add(Route("POST", "/v1/strings/format", doc: RouteDoc(
            summary: "Format one message ({\"locale\", \"key\", \"arguments\"}) or a batch ({\"locale\", \"messages\": [{\"key\", \"arguments\"}]}) for a locale (negotiated).",
            responses: [200: "the formatted text(s) and the catalog that served each",
                        400: "malformed JSON, lang or arguments (json_invalid, lang_invalid, format_failed, limit_exceeded)",
                        404: "unknown message key (key_unknown)", 413: "body over --max-body (body_too_large)",
                        415: "not JSON (unsupported_media_type)"],
            requestBody: "{\"locale\": \"ru\", \"key\": \"thread.unread\", \"arguments\": {\"count\": 5}}")) { request in
            let body = try jsonBody(request, limits: app.limits)
            guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) else {
                throw HTTPError.jsonInvalid("the body must be a JSON object")
            }
            var tag = "en"
            if let value = object["locale"] {
                guard case .string(let given) = value else { throw HTTPError.jsonInvalid("locale must be a string") }
                try validateLanguageTag(given)
                tag = given
            }
            let locale = strings.localizer.negotiate(tag: tag)
            func one(_ item: [String: JSONValue]) throws -> [String: Any] {
                guard case .string(let key)? = item["key"], !key.isEmpty else { throw HTTPError.jsonInvalid("each message needs a \"key\" string") }
                var arguments: [String: JSONValue] = [:]
                if let value = item["arguments"] {
                    guard case .object(let given) = value else { throw HTTPError.jsonInvalid("arguments must be an object") }
                    arguments = given
                }
                let formatted = try strings.format(key: key, locale: locale, arguments: arguments)
                return ["key": key, "text": formatted.text, "servedBy": formatted.servedBy.identifier]
            }
            var result: [String: Any] = ["locale": locale.identifier, "direction": Localizer.direction(of: locale).rawValue]
            if let messages = object["messages"] {
                guard case .array(let items) = messages else { throw HTTPError.jsonInvalid("messages must be an array") }
                guard items.count <= maxBatch else { throw HTTPError.limitExceeded("at most \(maxBatch) messages per request") }
                result["messages"] = try items.map { item -> [String: Any] in
                    guard case .object(let fields) = item else { throw HTTPError.jsonInvalid("each message must be an object") }
                    return try one(fields)
                }
            } else {
                for (name, value) in try one(object) { result[name] = value }
            }
            let data = (try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            return Response.json(Array(data), headers: [("Content-Language", locale.identifier), ("Cache-Control", "no-store")])
        })
    }
}
