import LookResolver
import StableJSON

/// The app's draft (admin): `PUT`, `GET`, `DELETE /v1/apps/{appKey}/look/draft` and
/// `POST /v1/apps/{appKey}/look/draft/publish`. A draft has its own versions (entity tags `"d<N>"`); the SDK fetch
/// never serves it (only a preview token does, see `PreviewTokenRoutes`).
enum DraftRoutes {
    static let pattern = "/v1/apps/{appKey}/look/draft"

    /// `prefill`: the response cache a publish prefills after answering (`AppRoutes.prefill`; nil: none).
    static func register(into router: inout Router, app: AppServices, prefill: LookResponseCache? = nil) {
        let auth = [401: "missing or wrong admin token (unauthorized)", 403: "admin API disabled: no token configured (forbidden)",
                    503: "store unavailable (store_unavailable)"]

        router.add(Route("GET", pattern, doc: RouteDoc(
            summary: "The app's draft (admin): its layer, version and ETag \"d<N>\". Never served by the SDK fetch.",
            responses: auth.merging([200: "the draft", 400: "malformed app key (key_invalid)", 404: "the app has no draft (draft_unknown)"]) { a, _ in a },
            admin: true, runsOn: .workers)) { request in
            try app.auth.authorize(authorization: request.header("authorization"))
            let key = try AppRoutes.appKey(request)
            let (row, layer) = try app.looks.draft(appKey: key)
            return draftResponse(key: key, row, layer: layer, diagnostics: nil, status: 200)
        })

        router.add(Route("PUT", pattern, doc: RouteDoc(
            summary: "Save the app's draft (admin): If-None-Match: * for a new draft, If-Match: \"d<N>\" to replace draft version N. Validated as a publish is (422 with the diagnostics). Every save revokes the draft's preview tokens.",
            responses: auth.merging([200: "saved as the draft's next version", 201: "saved as a new draft",
                                     400: "malformed JSON, key or precondition; or over a limit", 412: "the draft's version is not the one in If-Match, or a draft exists (draft_conflict)",
                                     413: "body over --max-body (body_too_large)", 415: "not JSON (unsupported_media_type)",
                                     422: "the layer has errors (look_invalid; details: diagnostics)", 428: "no If-Match / If-None-Match (precondition_required)"]) { a, _ in a },
            admin: true, requestBody: "the dashboard layer: {\"accent\": …, \"corners\": …, …}")) { request in
            try app.auth.authorize(authorization: request.header("authorization"))
            let key = try AppRoutes.appKey(request)
            let expected = try draftPrecondition(request)
            let body = try jsonBody(request, limits: app.limits)
            let (row, diagnostics) = try app.looks.saveDraft(appKey: key, body: body, expected: expected)
            let layer = try JSONValue(parsing: row.layer ?? "{}")
            return draftResponse(key: key, row, layer: layer, diagnostics: diagnostics, status: expected == DraftExpectation.none ? 201 : 200)
        })

        router.add(Route("DELETE", pattern, doc: RouteDoc(
            summary: "Delete the app's draft (admin); If-Match: \"d<N>\", when sent, must name it. Its preview tokens stop working.",
            responses: auth.merging([204: "deleted", 400: "malformed key or If-Match", 404: "the app has no draft (draft_unknown)",
                                     412: "If-Match does not name the draft (draft_conflict)"]) { a, _ in a },
            admin: true)) { request in
            try app.auth.authorize(authorization: request.header("authorization"))
            let key = try AppRoutes.appKey(request)
            let expected = try draftVersion(request)
            _ = try app.looks.deleteDraft(appKey: key, expected: expected)
            return Response(status: 204, headers: [("Cache-Control", "no-store")])
        })

        router.add(Route("POST", pattern + "/publish", doc: RouteDoc(
            summary: "Publish the draft as the app's next version (admin), in one transaction; the draft is then gone. If-Match names the LIVE version (\"v<N>\"), or If-None-Match: * for a new app.",
            responses: auth.merging([200: "published as the next version", 201: "published as version 1 of a new app",
                                     400: "malformed key or precondition", 404: "the app has no draft (draft_unknown)",
                                     412: "the live version is not the one in If-Match / the app exists (version_conflict)",
                                     428: "no If-Match / If-None-Match (precondition_required)"]) { a, _ in a },
            admin: true, lane: .reserved)) { request in
            try app.auth.authorize(authorization: request.header("authorization"))
            let key = try AppRoutes.appKey(request)
            let precondition = try AppRoutes.publishPrecondition(request, required: true)
            let stored = try app.looks.publishDraft(appKey: key, precondition: precondition)
            var response = AppRoutes.publishResponse(key: key, stored, diagnostics: [])
            response.afterAnswer = AppRoutes.prefill(prefill, app: app, key: key, version: stored.version, options: request.fetchOptions)
            return response
        })
    }

    /// `{"appKey", "diagnostics"?, "etag", "layer", "savedAt", "version"}` with `ETag: "d<N>"`, never cached.
    static func draftResponse(key: String, _ row: StoredDraft, layer: JSONValue, diagnostics: [Diagnostic]?, status: Int) -> Response {
        var members: [String: JSONValue] = [
            "appKey": .string(key), "etag": .string("\"d\(row.version)\""), "layer": layer,
            "savedAt": .string(row.savedAt), "version": .number(JSONNumber(row.version)),
        ]
        if let diagnostics { members["diagnostics"] = .array(diagnostics.map(\.wireValue)) }
        return Response.json(JSONWriter.bytes(.object(members)), status: status,
                             headers: [("ETag", "\"d\(row.version)\""), ("Cache-Control", "private, no-store")])
    }

    /// A save's precondition: `If-None-Match: *` (no draft yet) or `If-Match` naming one draft version `"d<N>"`.
    /// Throws 428 when neither is sent (or `If-Match: *`), 400 `precondition_invalid` for both, a malformed header
    /// or a tag that is not a draft's.
    static func draftPrecondition(_ request: Request) throws -> DraftExpectation {
        switch (present(request, "if-match"), present(request, "if-none-match")) {
        case (nil, nil):
            throw HTTPError.preconditionRequired("send If-Match: \"d<draft version>\", or If-None-Match: * for a new draft")
        case (.some, .some):
            throw HTTPError.badRequest("precondition_invalid", "send If-Match or If-None-Match, not both")
        case (nil, let value?):
            guard EntityTag.list(value) == ["*"] else { throw HTTPError.badRequest("precondition_invalid", "a draft save takes If-None-Match: * only") }
            return .none
        case (.some, nil):
            guard let version = try draftVersion(request) else { throw HTTPError.preconditionRequired("If-Match: * would overwrite blindly") }
            return .version(version)
        }
    }

    /// The draft version `If-Match` names (`"d<N>"`), or nil when absent. Throws 428 for `*`, 400
    /// `precondition_invalid` for anything but one draft tag.
    static func draftVersion(_ request: Request) throws -> Int? {
        guard let value = present(request, "if-match") else { return nil }
        guard let tags = EntityTag.list(value) else {
            throw HTTPError.badRequest("precondition_invalid", "If-Match takes the draft's entity tag, e.g. \"d3\"")
        }
        if tags == ["*"] { throw HTTPError.preconditionRequired("If-Match: * would overwrite blindly; send the draft's ETag") }
        guard tags.count == 1, let version = draftTagVersion(tags[0]) else {
            throw HTTPError.badRequest("precondition_invalid", "If-Match takes one draft entity tag, e.g. \"d3\"")
        }
        return version
    }

    /// N of `"d<N>"` (no leading zero, at most 9 digits), or nil.
    static func draftTagVersion(_ tag: String) -> Int? {
        guard tag.hasPrefix("\"d"), tag.hasSuffix("\""), tag.count >= 4 else { return nil }
        let digits = tag.dropFirst(2).dropLast()
        guard digits.count <= 9, digits.first != "0", digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    /// A header's value, or nil when absent or blank (an empty list, RFC 9110 §5.6.1).
    private static func present(_ request: Request, _ name: String) -> String? {
        request.header(name).flatMap { $0.allSatisfy { $0 == " " || $0 == "\t" } ? nil : $0 }
    }
}
