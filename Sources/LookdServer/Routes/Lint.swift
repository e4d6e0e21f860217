import Foundation
import LookResolver
import Strings
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
            guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(request.body)) else {
                throw HTTPError.jsonInvalid("the body must be a JSON object with \"catalogs\"")
            }
            guard case .array(let items)? = object["catalogs"], !items.isEmpty else {
                throw HTTPError.jsonInvalid("\"catalogs\" must be a non-empty array of {\"name\", \"text\"}")
            }
            guard items.count <= app.limits.maxLintLocales else {
                throw HTTPError.limitExceeded("at most \(app.limits.maxLintLocales) catalogs per request")
            }
            var inputs: [CatalogInput] = []
            for item in items {
                guard case .object(let fields) = item, case .string(let name)? = fields["name"], case .string(let text)? = fields["text"] else {
                    throw HTTPError.jsonInvalid("each catalog is {\"name\": \"de.json\", \"text\": \"…\"}")
                }
                guard !name.isEmpty, name.utf8.count <= 128, !name.contains("/"), !name.contains("\\"), !name.contains("\u{0}") else {
                    throw HTTPError.badRequest("lint_input_invalid", "a catalog name is a file name like de.json (no directories)")
                }
                inputs.append(CatalogInput(name: name, bytes: Array(text.utf8)))
            }
            var configuration = LintConfiguration()
            if let given = object["configuration"] {
                do {
                    configuration = try LintConfiguration.parse(Data(encodeSorted(given)))
                } catch {
                    throw HTTPError.badRequest("lint_input_invalid", "configuration: \(error)")
                }
            }
            let findings: [LintFinding]
            do {
                findings = try Linter(configuration: configuration).lint(inputs)
            } catch {
                throw HTTPError.badRequest("lint_input_invalid", "\(error)")
            }
            let report = LintReport(findings: findings, fileCount: inputs.count, toolVersion: lookdVersion)
            let text = format.reporter.render(report)
            let contentType = (format == .json || format == .sarif) ? "application/json; charset=utf-8" : "text/plain; charset=utf-8"
            return Response(status: 200, headers: [("Content-Type", contentType), ("Cache-Control", "no-store"),
                                                   ("X-Lint-Result", report.fails(strict: strict) ? "fail" : "pass")],
                            body: Array(text.utf8))
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
