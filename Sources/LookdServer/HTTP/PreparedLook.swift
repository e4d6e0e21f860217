import Locking

/// What the edge makes of one SDK fetch response, kept in the look's `edge` slot so that a look cache hit is written
/// without making anything (the hot path's speed depends on it: docs/design.md#layers-and-errors-in-the-daemon): its
/// br and gzip bodies (`encodings`, computed on a worker when first needed) and its prepared 200 and 304 (wire bytes
/// built once, `PreparedResponse`) in each content coding — br and gzip once their bodies are computed. Thread-safe.
final class PreparedLook: Sendable {
    /// One coding's prepared responses.
    struct Pair: Sendable {
        let ok: PreparedResponse
        let notModified: PreparedResponse
    }

    /// The body in the other codings, computed once (shared by every copy of the look).
    let encodings = LookEncodings()
    // Not the look itself: it holds this object (its `edge` slot), which would then never be freed.
    private let pairs = LockedValue<[ContentCoding: Pair]>([:])

    private init() {}

    /// The prepared responses kept with `look` (made empty on first use).
    static func of(_ look: CachedLook) -> PreparedLook {
        look.edge.value { PreparedLook() }
    }

    /// The 200 and 304 of `look` (the look this object is kept with) in `coding`, built on first use; nil for br or
    /// gzip before their bodies are computed.
    func pair(_ coding: ContentCoding, of look: CachedLook) -> Pair? {
        if let built = pairs.withLock({ $0[coding] }) { return built }
        guard let body = coding == .identity ? look.body : encodings.body(coding) else { return nil }
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
