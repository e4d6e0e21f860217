/// The SDK fetch response's HTTP form, made at the edge from the look service's domain values (`CachedLook`: body,
/// ETag value, language, app key): its header fields, the one list the routes and the engine's response cache both
/// send.
enum LookResponse {
    /// What the daemon is configured to add to every fetch answer (`DaemonConfiguration.purgeKeys`).
    struct Options: Sendable, Hashable {
        /// Send the app's surrogate key, the app key itself, as `Surrogate-Key` (Fastly) and `Cache-Tag` (Cloudflare)
        /// on the 200 and the 304, for a CDN in front that purges by key (docs/deployment.md). On by default (the
        /// published contract); `lookd serve --no-purge-keys` turns them off for a daemon that devices reach directly,
        /// where they are 100-odd bytes of every answer that nobody reads (a CDN that reads them strips them before the
        /// device).
        var purgeKeys = true

        init(purgeKeys: Bool = true) { self.purgeKeys = purgeKeys }
    }

    /// The fields of the 200 and of the 304 for app `appKey`'s response tagged `etag` in the language `language`
    /// (docs/http-api.md, "The SDK's fetch"; RFC 9110 §15.4.5: the 304 repeats ETag, Vary and Cache-Control). The
    /// answer depends on the request's Accept-Encoding (its coding), on Lookd-Preview (the same URL with a preview token
    /// in that field is the draft, so a shared cache must not answer it with this) and, when `languageFromQuery` is
    /// false, on Accept-Language: then Vary names it and Content-Language says what it negotiated. When `?lang=`
    /// decided the language the URL names it, so neither is sent (the body's `locale` says which of the 50 it
    /// resolved to), and a CDN keeps one copy per URL instead of one per Accept-Language value.
    /// Content-Type is `application/json` without a charset (RFC 8259 §11 defines none; JSON is UTF-8), and
    /// Cache-Control has no `public`: `max-age` already lets a shared cache store it (RFC 9111 §3), and the fetch never
    /// carries Authorization; and no space after its comma (the list syntax's whitespace is optional, RFC 9110 §5.6.1):
    /// a byte of every 200 and 304, with which the br answer is no larger than nginx's (docs/benchmarks.md, run N).
    /// The fields are listed with the ETag last (before `Content-Encoding`): what precedes it does not depend on the
    /// response's bytes (`leadingFields`), so the engine's response cache keeps it once per app version as a head prefix
    /// (`LookResponseCache`), and the 304's fields are one run of the 200's head.
    static func fields(etag: String, language: String, appKey: String, languageFromQuery: Bool, options: Options = Options())
        -> (ok: [(name: String, value: String)], notModified: [(name: String, value: String)]) {
        let leading = leadingFields(language: language, appKey: appKey, languageFromQuery: languageFromQuery, options: options)
        return (leading + [("ETag", etag)], Array(leading.dropFirst()) + [("ETag", etag)])
    }

    /// The 200's fields before its ETag (`fields`): `Content-Type`, then what the 304 repeats but the tag. The same for
    /// every response of an app version whose language `?lang=` decided.
    static func leadingFields(language: String, appKey: String, languageFromQuery: Bool, options: Options = Options()) -> [(name: String, value: String)] {
        var leading: [(name: String, value: String)] = [("Content-Type", "application/json")]
        if !languageFromQuery { leading.append(("Content-Language", language)) }
        leading.append(("Vary", languageFromQuery ? "Accept-Encoding, Lookd-Preview" : "Accept-Encoding, Accept-Language, Lookd-Preview"))
        // A CDN may serve it for 30 s and revalidate in the background for 60 s more; a publish is therefore visible
        // everywhere within 90 s — unless a webhook receiver purges the app's surrogate key at the CDN
        // (docs/deployment.md#purging-a-cdn-and-pushing-on-publish).
        leading.append(("Cache-Control", "max-age=30,stale-while-revalidate=60"))
        if options.purgeKeys { leading += [("Surrogate-Key", appKey), ("Cache-Tag", appKey)] }
        return leading
    }

    /// The fields of `look`'s 200 and 304 in `coding`: the coding's own tag (`ContentCoding.etag`), and on the 200
    /// `Content-Encoding` (not for identity).
    static func fields(_ look: CachedLook, _ coding: ContentCoding, languageFromQuery: Bool, options: Options = Options())
        -> (ok: [(name: String, value: String)], notModified: [(name: String, value: String)]) {
        let fields = fields(etag: coding.etag(look.etag), language: look.locale.identifier, appKey: look.appKey,
                            languageFromQuery: languageFromQuery, options: options)
        guard let token = coding.token else { return fields }
        return (fields.ok + [("Content-Encoding", token)], fields.notModified)
    }

    /// The response for `look` in `coding`: a 304 when `notModified`, else the 200 with the coding's body (br and gzip:
    /// computed first, on a worker: `PreparedLook.encodings`). Prepared wire bytes (`PreparedLook`, made once per look
    /// and kept with it), but for identity when `once`: a look the look cache does not keep (the engine's response
    /// cache holds it now) is answered this once with a response built for the request. Either way shareable: written
    /// without X-Request-Id (`PreparedResponse`).
    static func response(_ look: CachedLook, _ coding: ContentCoding, notModified: Bool, languageFromQuery: Bool,
                         options: Options = Options(), once: Bool = false) -> Response {
        let prepared = PreparedLook.of(look)
        let form = PreparedLook.Form(coding: coding, languageFromQuery: languageFromQuery, options: options)
        if !(once && coding == .identity), let pair = prepared.pair(form, of: look) {
            return .prebuilt(notModified ? pair.notModified : pair.ok)
        }
        let fields = fields(look, coding, languageFromQuery: languageFromQuery, options: options)
        return .prebuilt(notModified ? PreparedResponse(status: 304, headers: fields.notModified, body: [], shareable: true)
            : PreparedResponse(status: 200, headers: fields.ok, body: prepared.encodings.body(coding) ?? look.body, shareable: true))
    }
}
