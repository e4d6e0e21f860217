import LookResolver
import StableJSON

/// The app's published look: the SDK's fetch (public) and the dashboard's publish, history and
/// rollback (admin).
enum AppRoutes {
    static let keyDescription = "pk_live_… / pk_test_… app key"

    /// `responseCache`: where the fetch puts the responses the engine may answer itself (nil: none). `prefill`: the
    /// response cache a publish (or rollback) prefills after answering (`prefill(_:app:key:version:options:)`; nil: none).
    static func register(into router: inout Router, app: AppServices, responseCache: LookResponseCache?, prefill: LookResponseCache? = nil) {
        router.add(Route("GET", "/v1/apps/{appKey}/look", doc: RouteDoc(
            summary: "What the SDK fetches: the app's published dashboard layer, its version, the resolved look over the defaults, and its texts in the negotiated locale (?lang= beats Accept-Language). Strong ETag; If-None-Match gives 304.",
            responses: [200: "the published look (or, with a preview token, the draft marked \"draft\": true); br or gzip when Accept-Encoding prefers it (Content-Encoding, its own ETag)",
                        304: "not modified (If-None-Match matched the tag of a representation the request accepts)",
                        406: "Accept-Encoding refuses identity, gzip and br (encoding_unacceptable)",
                        400: "malformed app key (key_invalid) or language tag (lang_invalid)",
                        403: "a preview token that is forged, expired, revoked, for another app or an older draft (preview_token_invalid)",
                        404: "no look published for this app (app_unknown)", 503: "store unavailable (store_unavailable)"],
            query: ["lang": "BCP 47 language tag, e.g. de or pt-BR; beats Accept-Language",
                    "preview": "a preview token (POST …/look/draft/preview-tokens): answer the app's draft instead, never cached; also as the Lookd-Preview header"],
            lane: .reserved)) { request in
            let key = try appKey(request)
            // A preview token asks for the draft: never from (or into) any cache, always on the workers.
            if let token = request.query("preview") ?? request.header("lookd-preview") {
                guard !request.onEventLoop else { throw RunOnWorkers() }
                return try PreviewTokenRoutes.draftFetch(key: key, token: token, request: request, app: app)
            }
            // The content coding (RFC 9110 §12.5.3): the engine's negotiation, so both paths choose alike.
            let accept = AcceptEncoding(request.header("accept-encoding"))
            guard let chosen = accept.preferred(among: LookEncodings.offered) else {
                throw HTTPError(status: 406, code: "encoding_unacceptable",
                                message: "Accept-Encoding refuses every coding this response has (identity, gzip, br)")
            }
            let (locale, decidedByLang) = try app.strings.fetchLocale(lang: request.query("lang"), acceptLanguage: request.header("accept-language"))
            // The engine's response cache may answer this target itself from now on when the language came from `lang`
            // alone (so no request field can change the answer); the look cache then does not keep a copy of its own.
            let fill = decidedByLang ? responseCache : nil
            let generation = fill?.generation   // before the look is asked for: a purge since refuses the fill
            // A hit, or a new language of an app whose shared part is cached, is answered on the event loop; a miss
            // of the shared part (store read, resolve, encode) moves to the workers.
            let cached = try request.onEventLoop
                ? app.looks.fromMemory(appKey: key, locale: locale, keep: fill == nil) ?? { throw RunOnWorkers() }()
                : try app.looks.fetch(appKey: key, locale: locale, keep: fill == nil)
            // A coding other than identity is compressed once per response, on a worker (LookEncodings).
            if chosen != .identity, case let encodings = PreparedLook.of(cached).encodings, !encodings.isComputed {
                guard !request.onEventLoop else { throw RunOnWorkers() }
                encodings.compute(from: cached.body)
            }
            var composed: PreparedResponse?   // the identity 200 composed for the response cache
            if let fill, let generation {
                lazy var prefix = "/v1/apps/\(key)/look?lang="   // once a fill, and only when it puts other languages
                composed = fill.fill(cached, target: request.cacheTarget, label: 0, generation: generation, options: request.fetchOptions,
                          targetOf: { prefix + $0.identifier },
                          others: request.onEventLoop ? nil : { app.looks.languages(appKey: key, version: cached.version, $0) })
            }
            // If-None-Match revalidates any representation the request accepts, the chosen one first (as the engine).
            let noneMatch = request.fieldList("if-none-match")
            let revalidated = ([chosen] + ContentCoding.allCases).first {
                accept.weight($0) > 0 && EntityTag.noneMatchHolds(noneMatch, etag: $0.etag(cached.etag))
            }
            if let composed, revalidated == nil, chosen == .identity { return .prebuilt(composed) }
            return LookResponse.response(cached, revalidated ?? chosen, notModified: revalidated != nil, languageFromQuery: decidedByLang,
                                         options: request.fetchOptions, once: fill != nil)
        })

        router.add(Route("PUT", "/v1/apps/{appKey}/look", doc: RouteDoc(
            summary: "Publish a new dashboard layer (admin). Needs If-Match with the current version's ETag, or If-None-Match: * for a new app. Validated first: a layer with errors is refused with 422 and the diagnostics.",
            responses: [200: "published as the next version", 201: "published as version 1 of a new app",
                        400: "malformed JSON, key or precondition; or over a limit", 401: "missing or wrong admin token (unauthorized)",
                        403: "admin API disabled: no token configured (forbidden)", 412: "the app's current version is not the one in If-Match / the app exists (version_conflict)",
                        413: "body over --max-body (body_too_large)", 415: "not JSON (unsupported_media_type)",
                        422: "the layer has errors (look_invalid; details: diagnostics)", 428: "no If-Match / If-None-Match (precondition_required)",
                        503: "store unavailable, nothing published (store_unavailable); or the database failed during COMMIT and the outcome is unknown: read the current version (publish_outcome_unknown)"],
            admin: true, requestBody: "the dashboard layer: {\"accent\": …, \"corners\": …, …}", lane: .reserved)) { request in
            try app.auth.authorize(authorization: request.header("authorization"))
            let key = try appKey(request)
            let precondition = try publishPrecondition(request, required: true)
            let body = try jsonBody(request, limits: app.limits)
            let (stored, diagnostics) = try app.looks.publish(appKey: key, body: body, precondition: precondition)
            var response = publishResponse(key: key, stored, diagnostics: diagnostics)
            response.afterAnswer = Self.prefill(prefill, app: app, key: key, version: stored.version, options: request.fetchOptions)
            return response
        })

        router.add(Route("GET", "/v1/apps/{appKey}/look/history", doc: RouteDoc(
            summary: "The app's published versions, newest first, with their layers (admin).",
            responses: [200: "versions", 400: "malformed app key or limit", 401: "missing or wrong admin token (unauthorized)",
                        403: "admin API disabled (forbidden)", 404: "unknown app (app_unknown)", 503: "store unavailable (store_unavailable)"],
            admin: true, query: ["limit": "most versions to list, 1–1000 (default 50)"])) { request in
            try app.auth.authorize(authorization: request.header("authorization"))
            let key = try appKey(request)
            let limit = try integerParameter(request, "limit", default: 50, range: 1...1000)
            let body = try app.looks.history(appKey: key, limit: limit)
            return Response.json(body, headers: [("Cache-Control", "no-store")])
        })

        router.add(Route("POST", "/v1/apps/{appKey}/look/rollback", doc: RouteDoc(
            summary: "Republish an old version as the next version (admin). If-Match, when sent, must name the current version.",
            responses: [201: "republished as the next version", 400: "malformed app key, version or precondition",
                        401: "missing or wrong admin token (unauthorized)", 403: "admin API disabled (forbidden)",
                        404: "unknown app (app_unknown) or version (version_unknown)", 412: "If-Match does not name the current version (version_conflict)",
                        428: "If-Match: * (precondition_required): name the current version instead",
                        503: "store unavailable, nothing published (store_unavailable); or the outcome is unknown (publish_outcome_unknown)"],
            admin: true, query: ["to": "the version to republish (required)"], lane: .reserved)) { request in
            try app.auth.authorize(authorization: request.header("authorization"))
            let key = try appKey(request)
            guard request.query("to") != nil else { throw HTTPError.badRequest("parameter_invalid", "rollback needs ?to=VERSION") }
            let target = try integerParameter(request, "to", default: 0, range: 1...Int(Int32.max))
            let precondition = try publishPrecondition(request, required: false)
            if case .newApp? = precondition { throw HTTPError.badRequest("precondition_invalid", "If-None-Match: * does not apply to a rollback") }
            let stored = try app.looks.rollback(appKey: key, to: target, precondition: precondition)
            var response = publishResponse(key: key, stored, diagnostics: [])
            response.status = 201
            response.afterAnswer = Self.prefill(prefill, app: app, key: key, version: stored.version, options: request.fetchOptions)
            return response
        })
    }

    /// What a publish of `version` of `key` on this node leaves for after its answer (`Response.afterAnswer`, on its
    /// worker): the version's every language put in `cache` (`LookResponseCache.prefill`) as the fetch would fill them,
    /// built by the look service (`LookService.prepare`, which reads the store when the version's shared part is not
    /// cached) and put only while the look service still holds that version (`LookService.holds`). A store failure, a
    /// newer publish, or a cache without room leave the fetches to fill as before. nil when `cache` is nil.
    static func prefill(_ cache: LookResponseCache?, app: AppServices, key: String, version: Int,
                        options: LookResponse.Options) -> (@Sendable () -> Void)? {
        guard let cache else { return nil }
        return { prefillNow(cache, app: app, key: key, version: version, options: options) }
    }

    /// That prefill, on the caller's thread (the publish's worker, or `StartupPrefill`'s). Returns how many languages
    /// were put (0: none, for any of the reasons `LookResponseCache.prefill` gives).
    @discardableResult
    static func prefillNow(_ cache: LookResponseCache, app: AppServices, key: String, version: Int, options: LookResponse.Options) -> Int {
        let prefix = "/v1/apps/\(key)/look?lang="
        return cache.prefill(appKey: key, version: version, label: 0, options: options, targetOf: { prefix + $0.identifier },
                             looks: { (try? app.looks.prepare(appKey: key, version: version, $0)) ?? [] },
                             isCurrent: { app.looks.holds(appKey: key, version: version) })
    }

    /// The validated `{appKey}` path parameter. Throws 400 `key_invalid` with the reason.
    static func appKey(_ request: Request) throws -> String {
        let key = request.parameters["appKey"] ?? ""
        if let problem = AppKey.problem(key) { throw HTTPError.keyInvalid(problem) }
        return key
    }

    static func publishResponse(key: String, _ stored: StoredVersion, diagnostics: [Diagnostic]) -> Response {
        var writer = JSONWriter(capacity: 256 + 128 * diagnostics.count)
        writer.beginObject()
        writer.member("appKey", key)
        writer.key("diagnostics")
        writer.write(.array(diagnostics.map(\.wireValue)))
        stored.writeMembers(into: &writer)
        writer.endObject()
        return Response.json(writer.bytes, status: stored.version == 1 ? 201 : 200,
                             headers: [("Location", "/v1/apps/\(key)/look"), ("Cache-Control", "no-store")])
    }

    /// Reads the publish precondition: `If-None-Match: *` (a new app) or `If-Match` with entity tags. Our tags are
    /// `"v<N>"` and the fetch ETag `"v<N>-…"` (only the version is compared, strongly); a well-formed tag that is not
    /// one of ours — a weak tag, `"v01"`, anything else — simply does not match, so the publish answers 412
    /// (RFC 9110 §13.1.1). Throws 428 when `required` and neither header is present, or for `If-Match: *`;
    /// 400 `precondition_invalid` when a header is malformed or both are sent. An empty header counts as absent.
    static func publishPrecondition(_ request: Request, required: Bool) throws -> PublishPrecondition? {
        // An empty field value is an empty list: the same as no header (RFC 9110 §5.6.1).
        func present(_ name: String) -> String? {
            request.header(name).flatMap { $0.allSatisfy { $0 == " " || $0 == "\t" } ? nil : $0 }
        }
        let ifMatch = present("if-match")
        let ifNoneMatch = present("if-none-match")
        switch (ifMatch, ifNoneMatch) {
        case (nil, nil):
            if required { throw HTTPError.preconditionRequired("send If-Match: \"v<current version>\", or If-None-Match: * for a new app") }
            return nil
        case (.some, .some):
            throw HTTPError.badRequest("precondition_invalid", "send If-Match or If-None-Match, not both")
        case (nil, let value?):
            guard EntityTag.list(value) == ["*"] else {
                throw HTTPError.badRequest("precondition_invalid", "a publish takes If-None-Match: * only (for a new app)")
            }
            return .newApp
        case (let value?, nil):
            guard let tags = EntityTag.list(value) else {
                throw HTTPError.badRequest("precondition_invalid", "If-Match takes entity tags, e.g. \"v3\" (the current version's ETag)")
            }
            if tags == ["*"] { throw HTTPError.preconditionRequired("If-Match: * would overwrite blindly; send the current version's ETag") }
            return .anyVersion(tags.compactMap(EntityTag.version))
        }
    }
}

/// A query parameter as an integer in `range`, or `default` when absent. Throws 400 `parameter_invalid`.
func integerParameter(_ request: Request, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
    guard let text = request.query(name) else { return value }
    guard text.count <= 10, let number = Int(text), range.contains(number) else {
        throw HTTPError.badRequest("parameter_invalid", "\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
}
