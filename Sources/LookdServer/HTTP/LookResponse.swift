/// The SDK fetch response's HTTP form, made at the edge from the look service's domain values (`CachedLook`: body,
/// ETag value, language, app key): its header fields, the one list the routes and the engine's response cache both
/// send.
enum LookResponse {
    /// The fields of the 200 and of the 304 for app `appKey`'s response tagged `etag` in the language `language`. The
    /// answer depends on the request's Accept-Encoding (its coding) and Accept-Language (its language, without
    /// `?lang=`), and on Lookd-Preview: the same URL with a preview token in that field is the draft, so a shared cache
    /// must not answer it with this.
    static func fields(etag: String, language: String, appKey: String) -> (ok: [(name: String, value: String)], notModified: [(name: String, value: String)]) {
        let common: [(name: String, value: String)] = [
            ("ETag", etag), ("Content-Language", language), ("Vary", "Accept-Encoding, Accept-Language, Lookd-Preview"),
            // A CDN may serve it for 30 s and revalidate in the background for 60 s more; a
            // publish is therefore visible everywhere within 90 s — unless a webhook receiver purges the app's
            // surrogate key at the CDN (docs/deployment.md#purging-a-cdn-and-pushing-on-publish).
            ("Cache-Control", "public, max-age=30, stale-while-revalidate=60"),
            // The app's surrogate key, the app key itself, for Fastly-style (Surrogate-Key) and Cloudflare-style
            // (Cache-Tag) purges by key.
            ("Surrogate-Key", appKey), ("Cache-Tag", appKey),
        ]
        return ([("Content-Type", "application/json; charset=utf-8")] + common, common)
    }

    /// The fields of `look`'s 200 and 304 in `coding`: the coding's own tag (`ContentCoding.etag`), and on the 200
    /// `Content-Encoding` (not for identity).
    static func fields(_ look: CachedLook, _ coding: ContentCoding) -> (ok: [(name: String, value: String)], notModified: [(name: String, value: String)]) {
        let fields = fields(etag: coding.etag(look.etag), language: look.locale.identifier, appKey: look.appKey)
        guard let token = coding.token else { return fields }
        return (fields.ok + [("Content-Encoding", token)], fields.notModified)
    }

    /// The response for `look` in `coding`: a 304 when `notModified`, else the 200 with the coding's body (br and gzip:
    /// computed first, on a worker: `PreparedLook.encodings`). Prepared wire bytes (`PreparedLook`, made once per look
    /// and kept with it), but for identity when `once`: a look the look cache does not keep (the engine's response
    /// cache holds it now) is answered this once with a response built for the request.
    static func response(_ look: CachedLook, _ coding: ContentCoding, notModified: Bool, once: Bool = false) -> Response {
        let prepared = PreparedLook.of(look)
        if !(once && coding == .identity), let pair = prepared.pair(coding, of: look) {
            return .prebuilt(notModified ? pair.notModified : pair.ok)
        }
        let fields = fields(look, coding)
        return notModified ? Response(status: 304, headers: fields.notModified)
            : Response(status: 200, headers: fields.ok, body: prepared.encodings.body(coding) ?? look.body)
    }
}
