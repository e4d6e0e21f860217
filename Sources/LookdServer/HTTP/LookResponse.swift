import Locking

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

    /// The response for `look` in `coding`: a 304 when `notModified`, else the 200 with the coding's body. Prepared
    /// wire bytes (`PreparedLook`, built once per look and kept with it) when there are any; otherwise built for this
    /// request (identity of a look the look cache does not keep, answered once before the engine's cache holds it).
    static func response(_ look: CachedLook, _ coding: ContentCoding, notModified: Bool) -> Response {
        if let pair = PreparedLook.of(look).pair(coding, of: look) {
            return .prebuilt(notModified ? pair.notModified : pair.ok)
        }
        let fields = fields(look, coding)
        return notModified ? Response(status: 304, headers: fields.notModified)
            : Response(status: 200, headers: fields.ok, body: look.encodings.body(coding) ?? look.body)
    }
}

/// One SDK fetch response's prepared 200 and 304 (wire bytes built once, `PreparedResponse`) in each content coding,
/// made at the edge and kept in the look's `edge` slot, so that a look cache hit is written without building
/// anything (the hot path's speed depends on it: docs/design.md#layers-and-errors-in-the-daemon). Identity is prepared only for a look the look cache
/// keeps; br and gzip once their bodies are computed (`LookEncodings`). Thread-safe.
final class PreparedLook: Sendable {
    /// One coding's prepared responses.
    struct Pair: Sendable {
        let ok: PreparedResponse
        let notModified: PreparedResponse
    }

    // Not the look itself: it holds this object (its `edge` slot), which would then never be freed.
    private let pairs = LockedValue<[ContentCoding: Pair]>([:])

    private init() {}

    /// The prepared responses kept with `look` (made empty on first use).
    static func of(_ look: CachedLook) -> PreparedLook {
        look.edge.value { PreparedLook() }
    }

    /// The 200 and 304 of `look` (the look this object is kept with) in `coding`, built on first use; nil for
    /// identity of a look the look cache does not keep, and for br or gzip before their bodies are computed.
    func pair(_ coding: ContentCoding, of look: CachedLook) -> Pair? {
        if let built = pairs.withLock({ $0[coding] }) { return built }
        let body: [UInt8]
        if coding == .identity {
            guard look.heldByLookCache else { return nil }
            body = look.body
        } else {
            guard let coded = look.encodings.body(coding) else { return nil }
            body = coded
        }
        let fields = LookResponse.fields(look, coding)
        let made = Pair(ok: PreparedResponse(status: 200, headers: fields.ok, body: body),
                        notModified: PreparedResponse(status: 304, headers: fields.notModified, body: []))
        return pairs.withLock { pairs in
            if let built = pairs[coding] { return built }
            pairs[coding] = made
            return made
        }
    }
}
