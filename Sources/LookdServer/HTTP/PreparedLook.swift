import Locking

/// What the edge makes of one SDK fetch response, kept in the look's `edge` slot so that a look cache hit is written
/// without making anything (the hot path's speed depends on it: docs/design.md#layers-and-errors-in-the-daemon): its
/// br and gzip bodies (`encodings`, computed on a worker when first needed) and its prepared 200 and 304 (wire bytes
/// built once, `PreparedResponse`) in each form (content coding, and whether `?lang=` decided the language) — br and
/// gzip once their bodies are computed. Thread-safe.
final class PreparedLook: Sendable {
    /// What a pair is prepared for: a coding, whether `?lang=` decided the language, the daemon's options
    /// (`LookResponse.fields`).
    struct Form: Sendable, Hashable {
        var coding: ContentCoding
        var languageFromQuery: Bool
        var options: LookResponse.Options
    }

    /// One form's prepared responses.
    struct Pair: Sendable {
        let ok: PreparedResponse
        let notModified: PreparedResponse
    }

    /// The body in the other codings, computed once (shared by every copy of the look).
    let encodings = LookEncodings()
    // Not the look itself: it holds this object (its `edge` slot), which would then never be freed.
    private let pairs = LockedValue<[Form: Pair]>([:])

    private init() {}

    /// The prepared responses kept with `look` (made empty on first use).
    static func of(_ look: CachedLook) -> PreparedLook {
        look.edge.value { PreparedLook() }
    }

    /// The prepared responses kept with `look` when something made them already, else nil (nothing is made: a look the
    /// route has just built for the response cache needs none, and making and freeing them was ~5,000 instructions of
    /// each route miss, docs/benchmarks.md, run Q).
    static func existing(_ look: CachedLook) -> PreparedLook? {
        look.edge.existing(PreparedLook.self)
    }

    /// The 200 and 304 of `look` (the look this object is kept with) in `form`, built on first use; nil for br or
    /// gzip before their bodies are computed. Shareable: written without X-Request-Id (`PreparedResponse`).
    func pair(_ form: Form, of look: CachedLook) -> Pair? {
        if let built = pairs.withLock({ $0[form] }) { return built }
        guard let body = form.coding == .identity ? look.body : encodings.body(form.coding) else { return nil }
        let fields = LookResponse.fields(look, form.coding, languageFromQuery: form.languageFromQuery, options: form.options)
        let made = Pair(ok: PreparedResponse(status: 200, headers: fields.ok, body: body, shareable: true),
                        notModified: PreparedResponse(status: 304, headers: fields.notModified, body: [], shareable: true))
        return pairs.withLock { pairs in
            if let built = pairs[form] { return built }
            pairs[form] = made
            return made
        }
    }
}
