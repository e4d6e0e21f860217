import Foundation
import StableJSON

/// Preview tokens for the app's draft (admin): `POST /v1/apps/{appKey}/look/draft/preview-tokens` mints one,
/// `DELETE` revokes every one minted so far. The SDK fetch takes a token as `?preview=` or `Lookd-Preview` and then
/// answers the draft (`draftFetch`).
enum PreviewTokenRoutes {
    static func register(into router: inout Router, app: AppServices) {
        let pattern = DraftRoutes.pattern + "/preview-tokens"
        router.add(Route("POST", pattern, doc: RouteDoc(
            summary: "Mint a preview token for the app's current draft (admin): {\"ttlSeconds\": N} optional, 1–86400, default 3600. The SDK fetch with it (?preview= or Lookd-Preview) answers the draft until it expires, the draft changes or the tokens are revoked.",
            responses: [201: "the token: {\"appKey\", \"chatLink\", \"draftVersion\", \"expiresAt\", \"token\"}",
                        400: "malformed key or body, or ttlSeconds out of range (parameter_invalid)", 401: "missing or wrong admin token (unauthorized)",
                        403: "admin API disabled (forbidden)", 404: "the app has no draft (draft_unknown)", 413: "body over --max-body (body_too_large)",
                        415: "not JSON (unsupported_media_type)", 503: "store unavailable (store_unavailable)"],
            admin: true, requestBody: "optional: {\"ttlSeconds\": N}")) { request in
            try app.auth.authorize(authorization: request.header("authorization"))
            let key = try AppRoutes.appKey(request)
            let lifetime = try lifetimeParameter(request, app)
            guard let signing = app.auth.previewTokenKey else { throw AdminAuthError.disabled }
            let now = Int(currentRealtime().tv_sec)
            let (token, claims) = try app.looks.mintPreviewToken(appKey: key, lifetime: lifetime, key: signing, now: now)
            let body = JSONWriter.bytes(.object([
                "appKey": .string(key), "token": .string(token), "draftVersion": .number(JSONNumber(claims.draftVersion)),
                "expiresAt": .string(utcTimestamp(timespec(tv_sec: claims.expires, tv_nsec: 0))),
                "chatLink": .string(PreviewRoutes.chatLink(token)),
            ]))
            return Response.json(body, status: 201, headers: [("Cache-Control", "no-store")])
        })

        router.add(Route("DELETE", pattern, doc: RouteDoc(
            summary: "Revoke every preview token minted so far for the app's draft (admin). Saving, deleting or publishing the draft also ends its tokens.",
            responses: [204: "revoked", 400: "malformed app key (key_invalid)", 401: "missing or wrong admin token (unauthorized)",
                        403: "admin API disabled (forbidden)", 404: "the app has no draft (draft_unknown)", 503: "store unavailable (store_unavailable)"],
            admin: true)) { request in
            try app.auth.authorize(authorization: request.header("authorization"))
            let key = try AppRoutes.appKey(request)
            _ = try app.looks.revokePreviewTokens(appKey: key)
            return Response(status: 204, headers: [("Cache-Control", "no-store")])
        })
    }

    /// The token's lifetime in seconds: the body's optional `ttlSeconds` (an empty body or `{}`: the default).
    /// Throws 400 `parameter_invalid` / `json_invalid`, 415.
    static func lifetimeParameter(_ request: Request, _ app: AppServices) throws -> Int {
        guard !request.body.isEmpty else { return PreviewToken.defaultLifetime }
        let body = try jsonBody(request, limits: app.limits)
        let value: JSONValue
        do {
            value = try JSONValue(parsing: String(decoding: body, as: UTF8.self))
        } catch {
            throw HTTPError.jsonInvalid("the body is not JSON: \(error)")
        }
        guard let object = value.objectValue else { throw HTTPError.jsonInvalid("the body must be a JSON object") }
        guard let ttl = object["ttlSeconds"], !ttl.isNull else { return PreviewToken.defaultLifetime }
        guard let seconds = ttl.intValue, PreviewToken.lifetimes.contains(seconds) else {
            throw HTTPError.badRequest("parameter_invalid", "ttlSeconds takes a whole number of seconds from 1 to 86400 (24 h)")
        }
        return seconds
    }

    /// The SDK fetch of the draft a preview token names: the fetch's JSON marked `"draft": true`, never cached by
    /// anyone (`Cache-Control: private, no-store`). Throws 403 `preview_token_invalid` for any token that does not
    /// hold, saying nothing about the draft.
    static func draftFetch(key: String, token: String, request: Request, app: AppServices) throws -> Response {
        let (locale, _) = try app.strings.negotiate(lang: request.query("lang"), acceptLanguage: request.header("accept-language"))
        let now = Int(currentRealtime().tv_sec)
        let body = try app.looks.previewFetch(appKey: key, token: token, key: app.auth.previewTokenKey, locale: locale, now: now)
        return Response.json(body, headers: [("Cache-Control", "private, no-store"), ("Content-Language", locale.identifier),
                                             ("Vary", "Accept-Language, Lookd-Preview")])
    }
}
