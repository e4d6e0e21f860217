import StringsLint

/// `POST /v1/lint`: catalogs in, findings out — the same `Linter` as `lookd lint`, same check codes.
enum LintRoutes {
    static func register(into router: inout Router, app: AppServices) {
        router.add(Route("POST", "/v1/lint", doc: RouteDoc(
            summary: "Lint catalogs: {\"catalogs\": [{\"name\": \"de.json\", \"text\": \"<the file's text>\"}, …], \"configuration\": {…}?}. One catalog must be the source (en.json unless the configuration says otherwise). ?format=json (default), sarif, github or text; ?strict=true makes warnings fail. Findings point at line:column in each text.",
            responses: [200: "the report; X-Lint-Result: pass or fail",
                        400: "malformed JSON or configuration, no usable source catalog, or over a limit (json_invalid, lint_input_invalid, limit_exceeded, parameter_invalid)",
                        413: "body over --max-lint-body (body_too_large)", 415: "not JSON (unsupported_media_type)"],
            query: ["format": "json (default), sarif, github or text", "strict": "true: warnings fail the run too"],
            requestBody: "{\"catalogs\": [{\"name\": \"en.json\", \"text\": \"…\"}], \"configuration\": {…}}",
            maxBodyBytes: { $0.maxLintBodyBytes })) { request in
            try requireJSONContentType(request)
            guard !request.body.isEmpty else { throw HTTPError.jsonInvalid("the request needs a JSON body") }
            // Catalog texts are whole files: only the body limit bounds their length.
            try checkJSONLimits(request.body, limits: app.limits, maxStringBytes: app.limits.maxLintBodyBytes)
            let format = try lintFormat(request.query("format"))
            let strict = request.query("strict").map { $0 == "true" || $0 == "1" } ?? false
            let outcome = try app.lint.lint(body: request.body, format: format, strict: strict)
            let contentType = (format == .json || format == .sarif) ? "application/json" : "text/plain; charset=utf-8"
            return Response(status: 200, headers: [("Content-Type", contentType), ("Cache-Control", "no-store"),
                                                   ("X-Lint-Result", outcome.fails ? "fail" : "pass")],
                            body: Array(outcome.text.utf8))
        })
    }

    private static func lintFormat(_ value: String?) throws -> LintFormat {
        guard let value else { return .json }
        guard let format = LintFormat(rawValue: value) else {
            throw HTTPError.badRequest("parameter_invalid", "format takes json, sarif, github or text")
        }
        return format
    }
}
