
/// `POST /v1/looks/resolve`: layers in, resolved look out — the dashboard's preview of an
/// unpublished look, and thin clients. Nothing is stored.
enum LookRoutes {
    static func register(into router: inout Router, app: AppServices) {
        router.add(Route("POST", "/v1/looks/resolve", doc: RouteDoc(
            summary: "Resolve a look from its layers ({\"dashboard\", \"code\", \"inferred\"}, each optional) over the defaults.",
            responses: [200: "the resolved look (stable bytes; per-field source and diagnostics)",
                        400: "malformed JSON (json_invalid) or over a limit (limit_exceeded)",
                        413: "body over --max-body (body_too_large)", 415: "not JSON (unsupported_media_type)"],
            requestBody: "{\"dashboard\": {…}, \"code\": {…}, \"inferred\": {…}}")) { request in
            let body = try jsonBody(request, limits: app.limits)
            return Response.json(try app.looks.resolve(body: body), headers: [("Cache-Control", "no-store")])
        })
    }
}

/// The request body checked for media type and JSON limits (400/415 on failure), not yet decoded.
func jsonBody(_ request: Request, limits: Limits) throws -> [UInt8] {
    try requireJSONContentType(request)
    guard !request.body.isEmpty else { throw HTTPError.jsonInvalid("the request needs a JSON body") }
    try checkJSONLimits(request.body, limits: limits)
    return request.body
}
