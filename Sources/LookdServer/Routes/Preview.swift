import Foundation
import LookResolver
import Strings

/// `GET /v1/preview` (a published app's look) and `POST /v1/preview` (the dashboard's unpublished draft):
/// the chat as apps will show it, as a self-contained HTML page (see `PreviewPage`). Safe to embed in an
/// iframe: no script, nothing loaded from anywhere, every team text escaped, and a CSP that enforces it.
enum PreviewRoutes {
    static let query = [
        "lang": "BCP 47 language tag, e.g. ar or pt-BR; beats Accept-Language; the pseudo-locales en-XA and ar-XB only by their exact tag",
        "appearance": "light, dark or both (default: both, side by side) in the standard palette (4.5:1); increased-light, increased-dark or increased in the increased-contrast palette (7:1); all for the four",
    ]

    static func register(into router: inout Router, app: AppServices) {
        router.add(Route("GET", "/v1/preview", doc: RouteDoc(
            summary: "The chat's look preview as an HTML page: a published app's look (?app=pk_…), or the defaults without app.",
            responses: [200: "the HTML page", 400: "malformed app key (key_invalid), language tag (lang_invalid) or appearance (appearance_invalid)",
                        404: "no look published for this app (app_unknown)", 503: "store unavailable (store_unavailable)"],
            query: query.merging(["app": AppRoutes.keyDescription]) { first, _ in first },
            contentType: "text/html", runsOn: .workers)) { request in
            var layers = LookLayers()
            if let key = request.query("app") {
                if let problem = AppKey.problem(key) { throw HTTPError.keyInvalid(problem) }
                layers.dashboard = try app.guardStore { try app.looks.publishedLayer(appKey: key) }
            }
            return try page(layers, request, app)
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

    private static func page(_ layers: LookLayers, _ request: Request, _ app: AppServices) throws -> Response {
        let appearance = request.query("appearance") ?? "both"
        guard let panels = PreviewRequest.panels(appearance) else {
            throw HTTPError.badRequest("appearance_invalid", PreviewRequest.appearanceProblem(appearance))
        }
        let (locale, _) = try app.strings.negotiate(lang: request.query("lang"), acceptLanguage: request.header("accept-language"))
        let look = app.looks.look(layers)
        let content: PreviewContent
        do {
            content = try PreviewContent(look: look, localizer: app.strings.localizer, locale: locale)
        } catch let error as FormatError {
            throw HTTPError.internalError("the \(locale) catalog cannot format the preview: \(error.description)")
        }
        let html = PreviewPage(look: look, content: content, panels: panels).html()
        return Response(status: 200, headers: [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Security-Policy", PreviewPage.contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-store"),
            ("Content-Language", locale.identifier),
        ], body: Array(html.utf8))
    }
}
