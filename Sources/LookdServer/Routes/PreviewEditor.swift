import LookResolver
import StableJSON

/// `GET /v1/preview/editor`: the live look editor (`EditorPage`) — controls for the accent, corners, font and header
/// style beside the chat's phones, resolved through `POST /v1/looks/resolve` by the page's own script as the
/// designer changes them. Starts from the defaults, an app's published look (`?app=`) or its draft (`&preview=`
/// with a preview token, like the preview page). Public like the preview: it shows nothing the preview does not,
/// and saves nothing.
enum PreviewEditorRoutes {
    static func register(into router: inout Router, app: AppServices) {
        router.add(Route("GET", "/v1/preview/editor", doc: RouteDoc(
            summary: "The live look editor as an HTML page: pick an accent, corners, font and header style and the phones update without a reload (POST /v1/looks/resolve), listing each adjustment lookd makes and why. Starts from the defaults, a published app's look (?app=) or its draft (?preview=).",
            responses: PreviewRoutes.pageResponses,
            query: PreviewRoutes.query.merging([
                "app": AppRoutes.keyDescription, "preview": PreviewRoutes.previewDescription,
                "appearance": "the phones, as for the preview page; default all (light, dark, increased-contrast light and dark)",
            ]) { _, editor in editor },
            contentType: "text/html", runsOn: .workers)) { request in
            let (layer, chatLink) = try PreviewRoutes.requestedLayer(request, app)
            let panels = try PreviewRoutes.panels(request, default: "all")
            let (locale, _) = try app.strings.negotiate(lang: request.query("lang"), acceptLanguage: request.header("accept-language"))
            let look = app.looks.look(LookLayers(dashboard: layer))
            var contents: [HeaderStyle: PreviewContent] = [:]
            for style in HeaderStyle.allCases {
                var variant = look
                variant.headerStyle.value = style
                contents[style] = try PreviewRoutes.content(variant, locale, app)
            }
            let page = EditorPage(layer: layer ?? .object([:]), look: look, contents: contents, panels: panels, chatLink: chatLink)
            var headers = PreviewRoutes.htmlHeaders.filter { $0.0 != "Content-Security-Policy" }
            headers.append(("Content-Security-Policy", EditorScript.contentSecurityPolicy))
            headers.append(("Content-Language", locale.identifier))
            return Response(status: 200, headers: headers, body: Array(page.html().utf8))
        })
    }
}
