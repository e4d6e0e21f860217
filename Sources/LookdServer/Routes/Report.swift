/// `GET /v1/apps/{appKey}/look/report`: the accessibility evidence for the app's published look (or, with
/// `?draft=true` and the admin token, its draft), as JSON or as an HTML page (`?format=html`, or an `Accept` that
/// asks for `text/html` without `application/json`).
enum ReportRoutes {
    static func register(into router: inout Router, app: AppServices) {
        router.add(Route("GET", "/v1/apps/{appKey}/look/report", doc: RouteDoc(
            summary: "The accessibility report of the app's published look: every text/background pair in every appearance with its WCAG 2 ratio and level and its APCA Lc, colour-vision-deficiency distances, and lookd's adjustments. JSON, or HTML with ?format=html.",
            responses: [200: "the report", 400: "malformed app key (key_invalid) or parameter (parameter_invalid)",
                        401: "?draft=true without the admin token (unauthorized)", 403: "?draft=true with the admin API disabled (forbidden)",
                        404: "no look published for this app (app_unknown), or no draft (draft_unknown)", 503: "store unavailable (store_unavailable)"],
            query: ["format": "json (default) or html; without it, an Accept asking for text/html but not application/json gets HTML",
                    "draft": "true: the report of the app's draft instead (admin token required)"],
            runsOn: .workers, alternateContentTypes: ["text/html"])) { request in
            let key = try AppRoutes.appKey(request)
            let html = try wantsHTML(request)
            let report: LookReport
            switch request.query("draft") {
            case nil, "false"?:
                report = try app.looks.publishedReport(appKey: key)
            case "true"?:
                try app.auth.authorize(authorization: request.header("authorization"))
                report = try app.looks.draftReport(appKey: key)
            default:
                throw HTTPError.badRequest("parameter_invalid", "draft takes true or false")
            }
            return response(report, html: html)
        })
    }

    /// Whether to answer HTML: `?format=html`, or no `format` and an `Accept` naming `text/html` but not JSON.
    /// Throws 400 `parameter_invalid` for another `format`.
    static func wantsHTML(_ request: Request) throws -> Bool {
        switch request.query("format") {
        case "json"?: return false
        case "html"?: return true
        case nil:
            let accept = (request.header("accept") ?? "").lowercased()
            return accept.contains("text/html") && !accept.contains("application/json")
        default: throw HTTPError.badRequest("parameter_invalid", "format takes json or html")
        }
    }

    static func response(_ report: LookReport, html: Bool) -> Response {
        if html {
            return Response(status: 200, headers: PreviewRoutes.htmlHeaders + [("Vary", "Accept")], body: Array(ReportPage(report).html().utf8))
        }
        return Response.json(report.jsonBytes(), headers: [("Cache-Control", "no-store"), ("Vary", "Accept")])
    }
}
