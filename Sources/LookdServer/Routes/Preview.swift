import StableJSON
import Foundation
import LookResolver
import Strings

/// `GET /v1/preview` (a published app's look, or its stored draft given a preview token) and `POST /v1/preview`
/// (layers the dashboard posts): the chat as apps will show it, as a self-contained HTML page (see `PreviewPage`).
/// Safe to embed in an iframe: no script, nothing loaded from anywhere, every team text escaped, and a CSP that
/// enforces it.
enum PreviewRoutes {
    static let query = [
        "lang": "BCP 47 language tag, e.g. ar or pt-BR; beats Accept-Language; the pseudo-locales en-XA and ar-XB only by their exact tag",
        "appearance": "light, dark or both (default: both, side by side) in the standard palette (4.5:1); increased-light, increased-dark or increased in the increased-contrast palette (7:1); all for the four",
    ]

    static func register(into router: inout Router, app: AppServices) {
        router.add(Route("GET", "/v1/preview", doc: RouteDoc(
            summary: "The chat's look preview as an HTML page: a published app's look (?app=pk_…), its draft given a preview token (?preview=, with the chat link to open it on a phone), or the defaults without app.",
            responses: pageResponses,
            query: query.merging(["app": AppRoutes.keyDescription, "preview": previewDescription]) { first, _ in first },
            contentType: "text/html", runsOn: .workers)) { request in
            let (layer, chatLink) = try requestedLayer(request, app)
            return try page(LookLayers(dashboard: layer), request, app, chatLink: chatLink)
        })

        router.add(Route("POST", "/v1/preview", doc: RouteDoc(
            summary: "The chat's look preview as an HTML page for posted layers (the dashboard's unpublished draft). Nothing is stored.",
            responses: [200: "the HTML page", 400: "malformed JSON (json_invalid), language tag (lang_invalid), appearance (appearance_invalid) or over a limit (limit_exceeded)",
                        413: "body over --max-body (body_too_large)", 415: "not JSON (unsupported_media_type)"],
            query: query, requestBody: "{\"dashboard\": {…}, \"code\": {…}, \"inferred\": {…}}", contentType: "text/html")) { request in
            let body = try jsonBody(request, limits: app.limits)
            return try page(try app.looks.layers(body), request, app)
        })
    }

    /// The answers of a page drawn for `?app=`, `&preview=`, `lang` and `appearance` (the preview, the editor).
    static let pageResponses = [
        200: "the HTML page", 400: "malformed app key (key_invalid), language tag (lang_invalid) or appearance (appearance_invalid), or preview without app (parameter_invalid)",
        403: "a preview token that does not hold (preview_token_invalid)",
        404: "no look published for this app (app_unknown)", 503: "store unavailable (store_unavailable)",
    ]

    static let previewDescription = "a preview token for the app's draft (POST /v1/apps/{appKey}/look/draft/preview-tokens): the draft is drawn, with its chat link"

    /// The layer text of the draft `token` names for app `key` (a valid key), when the token holds now. Throws
    /// `DraftServiceError.previewTokenInvalid` (403), `StoreUnavailableError`.
    static func draftLayer(appKey key: String, token: String, app: AppServices) throws -> String {
        let now = Int(currentRealtime().tv_sec)
        return try app.looks.previewDraft(appKey: key, token: token, key: app.auth.previewTokenKey, now: now).1
    }

    /// The dashboard layer a page's query names: `?app=` the app's published layer, `?app=&preview=TOKEN` its draft
    /// (with the draft's chat link), neither the defaults (nil). Throws `HTTPError` 400 (`key_invalid`,
    /// `parameter_invalid` for `preview` without `app`), `DraftServiceError.previewTokenInvalid` (403),
    /// `LookServiceError` (404 `app_unknown`), `StoreUnavailableError`.
    static func requestedLayer(_ request: Request, _ app: AppServices) throws -> (layer: JSONValue?, chatLink: String?) {
        guard let key = request.query("app") else {
            if request.query("preview") != nil { throw HTTPError.badRequest("parameter_invalid", "preview needs app") }
            return (nil, nil)
        }
        if let problem = AppKey.problem(key) { throw HTTPError.keyInvalid(problem) }
        if let token = request.query("preview") {
            return (try JSONValue(parsing: try draftLayer(appKey: key, token: token, app: app)), chatLink(token))
        }
        return (try app.looks.publishedLayer(appKey: key), nil)
    }

    /// The phones an `appearance` query asks for (`fallback` without one). Throws 400 `appearance_invalid`.
    static func panels(_ request: Request, default fallback: String) throws -> [PreviewPanel] {
        let appearance = request.query("appearance") ?? fallback
        guard let panels = PreviewRequest.panels(appearance) else {
            throw HTTPError.badRequest("appearance_invalid", PreviewRequest.appearanceProblem(appearance))
        }
        return panels
    }

    /// The preview's words for `look` in `locale`; a catalog that cannot format them is the server's fault (500).
    static func content(_ look: ResolvedLook, _ locale: LocaleTag, _ app: AppServices) throws -> PreviewContent {
        do {
            return try PreviewContent(look: look, localizer: app.strings.localizer, locale: locale)
        } catch let error as FormatError {
            throw HTTPError.internalError("the \(locale) catalog cannot format the preview: \(error.description)")
        }
    }

    /// The query a team appends to the app's own link to open the chat with the draft on a phone.
    static func chatLink(_ token: String) -> String {
        "?pingfront=chat&preview=" + token
    }

    private static func page(_ layers: LookLayers, _ request: Request, _ app: AppServices, chatLink: String? = nil) throws -> Response {
        let panels = try panels(request, default: "both")
        let (locale, _) = try app.strings.negotiate(lang: request.query("lang"), acceptLanguage: request.header("accept-language"))
        let look = app.looks.look(layers)
        let html = PreviewPage(look: look, content: try content(look, locale, app), panels: panels, chatLink: chatLink).html()
        return Response(status: 200, headers: htmlHeaders + [("Content-Language", locale.identifier)], body: Array(html.utf8))
    }

    /// The headers of every page lookd serves (preview, matrix, report): HTML that loads nothing, is never cached,
    /// and may be embedded in a sandboxed iframe.
    static let htmlHeaders: [(String, String)] = [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Content-Security-Policy", PreviewPage.contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]
}

/// `GET /v1/preview/matrix`: the chat across languages, palettes, text sizes and colour-vision deficiencies on one
/// page (`PreviewMatrix`); the published look (`?app=`), with the draft beside it when `?preview=` carries a valid
/// preview token for it (and the chat link to open it on a phone).
enum PreviewMatrixRoutes {
    static func register(into router: inout Router, app: AppServices) {
        router.add(Route("GET", "/v1/preview/matrix", doc: RouteDoc(
            summary: "The preview matrix as one HTML page: languages (en-XA, ar, ar-XB, …), light/dark and increased contrast, Dynamic Type sizes up to AX5, simulated colour-vision deficiencies; a published app's look (?app=), with its draft beside it given a preview token (?preview=).",
            responses: [200: "the HTML page", 400: "malformed app key (key_invalid), or preview without app (parameter_invalid)",
                        403: "a preview token that does not hold (preview_token_invalid)",
                        404: "no look published for this app (app_unknown)", 503: "store unavailable (store_unavailable)"],
            query: ["app": AppRoutes.keyDescription, "preview": "a preview token for the app's draft: the draft is drawn beside the published look"],
            contentType: "text/html", runsOn: .workers)) { request in
            var subjects: [PreviewMatrix.Subject] = []
            var chatLink: String?
            if let key = request.query("app") {
                if let problem = AppKey.problem(key) { throw HTTPError.keyInvalid(problem) }
                if let token = request.query("preview") {
                    let layer = try PreviewRoutes.draftLayer(appKey: key, token: token, app: app)
                    // The published look may not exist yet: a new app's first draft is drawn alone.
                    do {
                        let published = try app.looks.publishedLayer(appKey: key)
                        subjects.append(.init(role: "published", look: app.looks.look(LookLayers(dashboard: published))))
                    } catch LookServiceError.appUnknown {}
                    subjects.append(.init(role: "draft", look: app.looks.look(LookLayers(dashboard: try JSONValue(parsing: layer)))))
                    chatLink = PreviewRoutes.chatLink(token)
                } else {
                    let layer = try app.looks.publishedLayer(appKey: key)
                    subjects.append(.init(role: "published", look: app.looks.look(LookLayers(dashboard: layer))))
                }
            } else {
                if request.query("preview") != nil { throw HTTPError.badRequest("parameter_invalid", "preview needs app") }
                subjects.append(.init(role: "published", look: app.looks.look(LookLayers())))
            }
            let html: String
            do {
                html = try PreviewMatrix(subjects: subjects, localizer: app.strings.localizer, chatLink: chatLink).html()
            } catch let error as FormatError {
                throw HTTPError.internalError("a catalog cannot format the preview: \(error.description)")
            }
            return Response(status: 200, headers: PreviewRoutes.htmlHeaders, body: Array(html.utf8))
        })
    }
}
