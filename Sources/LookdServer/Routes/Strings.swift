import Foundation
import LookResolver
import Strings

/// The 50 locales, negotiation, catalogs and formatting (the Strings library over HTTP).
enum StringsRoutes {
    static func register(into router: inout Router, app: AppServices) {
        let strings = app.strings
        router.add(Route("GET", "/v1/locales", doc: RouteDoc(
            summary: "The 50 locales (with ?pseudo=true, then the pseudo-locales en-XA and ar-XB, \"pseudo\": true; for layout testing, chosen only by their exact tag): direction, native name, CLDR plural categories, fallback chain.",
            responses: [200: "the locales", 400: "pseudo is not true or false (parameter_invalid)"],
            query: ["pseudo": "true to list the pseudo-locales en-XA and ar-XB after the 50 (default false)"])) { request in
            let body: [UInt8]
            switch request.query("pseudo") {
            case nil, "false": body = strings.localesBody
            case "true": body = strings.localesWithPseudoBody
            default: throw HTTPError.badRequest("parameter_invalid", "pseudo takes true or false")
            }
            return Response.json(body, headers: [("Cache-Control", "public, max-age=3600")])
        })

        router.add(Route("GET", "/v1/locales/match", doc: RouteDoc(
            summary: "Negotiate one of the 50 for ?lang= (the SDK's explicit language) or the Accept-Language header; no match gives en.",
            responses: [200: "the negotiated locale", 400: "malformed lang (lang_invalid)"],
            query: ["lang": "BCP 47 language tag; beats Accept-Language"])) { request in
            let (locale, body) = try strings.match(lang: request.query("lang"), acceptLanguage: request.header("accept-language"))
            return Response.json(body, headers: [("Content-Language", locale.identifier), ("Vary", "Accept-Language"), ("Cache-Control", "no-store")])
        })

        router.add(Route("GET", "/v1/strings", doc: RouteDoc(
            summary: "The negotiated locale's catalog (every key: pattern and the catalog that served it), with its direction, plural categories and fallback chain. Strong ETag; If-None-Match gives 304.",
            responses: [200: "the catalog", 304: "not modified", 400: "malformed lang (lang_invalid)"],
            query: ["lang": "BCP 47 language tag; beats Accept-Language; the pseudo-locales en-XA and ar-XB only by their exact tag"])) { request in
            let (locale, _) = try strings.negotiate(lang: request.query("lang"), acceptLanguage: request.header("accept-language"))
            let cached = strings.catalog(locale)
            let headers: [(name: String, value: String)] = [
                ("ETag", cached.etag), ("Content-Language", locale.identifier), ("Vary", "Accept-Language"),
                ("Cache-Control", "public, max-age=300"),
            ]
            if EntityTag.noneMatchHolds(request.fieldList("if-none-match"), etag: cached.etag) {
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
            let (locale, data) = try strings.format(body: try jsonBody(request, limits: app.limits))
            return Response.json(data, headers: [("Content-Language", locale.identifier), ("Cache-Control", "no-store")])
        })
    }
}
