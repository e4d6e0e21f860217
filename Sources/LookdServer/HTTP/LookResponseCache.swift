import HTTPEngine
import Locking
import Strings

/// The SDK fetch's responses in the engine's response cache (`EngineResponseCache`): the fetch route puts the look
/// service's responses (`CachedLook`) there as prepared 200s and 304s tagged with their app key, and the look cache
/// keeps them coherent through this type (a `DerivedLookCache`: an invalidation of an app purges the entries tagged
/// with its key; a revalidation checks every app filled). The look service knows nothing of it. Thread-safe.
final class LookResponseCache: DerivedLookCache {
    let engine: EngineResponseCache
    /// The languages the first fill of an app version puts at once (`fill`'s `others`): the locales whose own identifier
    /// negotiates to themselves, so that `?lang=<identifier>` asks for each.
    let languages: [LocaleTag]
    /// The apps filled and their versions, so that a revalidation checks them too (the engine may hold an app the look
    /// cache no longer does). Past `appsLimit` apps, `overflow`: a revalidation empties the whole cache instead.
    private let filled = LockedValue<(apps: [String: Int], overflow: Bool)>(([:], false))

    /// The most apps whose fills are remembered for a revalidation.
    static let appsLimit = 100_000

    init(engine: EngineResponseCache, localizer: Localizer) {
        self.engine = engine
        languages = LocaleTag.all.filter { localizer.negotiate(language: $0.identifier, acceptLanguage: nil) == $0 }
    }

    var capacityBytes: Int { engine.capacityBytes }

    /// The engine's purge count: read it before asking the look service for the response to `fill` with, so that a fill
    /// racing an invalidation is refused.
    var generation: UInt64 { engine.generation }

    /// Puts `look` under `target`, counted under the route label `label`; its 200's body is composed from the version's
    /// shared bytes (the engine's one copy per version, referenced, not copied) and the language's own. `others`: on a
    /// worker, how to build the app version's other languages (`LookService.languages`: one look per locale asked for, in their
    /// order, or none; each is put under the target of the locale at its position): when this is the version's
    /// first fill and the cache has room for the whole app (estimated from this entry), every other language of
    /// `languages` is built and put too, under `targetOf(locale)` (about 50 builds of microseconds each, once per app
    /// version), so that their first requests are the engine's as well — in identity only: a request for another coding
    /// then computes it once (on a worker) and puts the entry again. Nothing is put when a purge happened since
    /// `generation` was read; the other languages are put only while each look `others` returns is of the locale at its
    /// position (the first that is not ends the fill).
    /// `options`: the daemon's (`Request.fetchOptions`), which the entries' fields follow as the routes' answers do.
    /// Returns `look`'s identity 200 as composed for the cache (put or not), for the route to answer with: the miss then
    /// builds no second response (`LookResponse.response` would copy the whole ~3.3 KB body again).
    @discardableResult
    func fill(_ look: CachedLook, target: String, label: Int, generation: UInt64, options: LookResponse.Options, targetOf: (LocaleTag) -> String,
              others: (([LocaleTag]) -> [CachedLook])?) -> PreparedResponse {
        let wire = VersionWire.of(look.shared)
        let head = wire.head(look, options: options)
        let (kept, ok) = put(look, wire: wire, head: head, target: target, label: label, generation: generation, options: options)
        let own: [(name: String, value: String)] = [("ETag", look.etag)]
        let answer = PreparedResponse(adopting: ok, status: 200, headers: head.leading + own, body: look.body)
        guard kept, noteFill(appKey: look.appKey, version: look.version), let others else { return answer }
        let usage = engine.usage
        let each = usage.bytes / max(1, usage.entries)
        guard usage.bytes + languages.count * max(each, 1_024) <= engine.capacityBytes else { return answer }
        let wanted = languages.map { (locale: $0, target: targetOf($0)) }.filter { $0.target != target }
        for (built, other) in zip(others(wanted.map(\.locale)), wanted) {
            // `others` answers in the order asked; a look of another language is never put under this one's target.
            guard built.locale == other.locale else { break }
            let (kept, ok) = put(built, wire: wire, head: head, target: other.target, label: label, generation: generation, options: options)
            he_prepared_release(ok)
            guard kept else { break }
        }
        return answer
    }

    /// Records a fill of `version` of `appKey`; true when it is the version's first.
    private func noteFill(appKey: String, version: Int) -> Bool {
        filled.withLock { filled in
            guard filled.apps[appKey] != version else { return false }
            if filled.apps.count >= Self.appsLimit && filled.apps[appKey] == nil {
                filled.overflow = true
            } else {
                filled.apps[appKey] = version
            }
            return true
        }
    }

    func drop(appKey: String?) {
        filled.withLock { filled in
            if let appKey { filled.apps[appKey] = nil } else { filled = ([:], false) }
        }
        engine.purge(tag: appKey)
    }

    func heldVersions() -> [String: Int]? {
        filled.withLock { $0.overflow ? nil : $0.apps }
    }

    /// Puts an SDK fetch response: its 200 (its head the version's shared prefix, referenced, then its own ETag; its body
    /// joined from the version's shared pieces, referenced, and the language's own pieces) and its 304 (its fields only:
    /// the engine writes it from a run of the 200's head), tagged with its app key, offered in every coding and holding
    /// the br and gzip forms when they are computed. Shareable: written without X-Request-Id, as the routes'
    /// (`LookResponse`). `head`: the version's shared head for the daemon's options (`VersionWire.head`: the engine
    /// answers only targets whose `?lang=` decided the language, and the fetch route fills only those). Returns whether
    /// it was kept (see `EngineResponseCache.put`) and the 200 in the engine (one reference, the caller's to release).
    private func put(_ look: CachedLook, wire: VersionWire, head: VersionWire.Head, target: String, label: Int,
                     generation: UInt64, options: LookResponse.Options) -> (kept: Bool, ok: OpaquePointer) {
        let own = wireFields([("ETag", look.etag)])   // the 200's own field, and the 304's last
        let bytes = wire.bytes, pieces = look.shared, language = look.language.bytes, cut = look.language.cut
        let ok = composedResponse(status: 200, fields: own, runs: [
            .shared(bytes, 0..<pieces.cut1), .own(Array(language[..<cut])), .shared(bytes, pieces.cut1..<pieces.cut2),
            .own(Array(language[cut...])), .shared(bytes, pieces.cut2..<pieces.bytes.count),
        ], shareable: true, prefix: head.prefix)
        // The other codings, when a request has needed them already (LookEncodings, in the look's edge slot: a look the
        // route has just built has none); their PreparedResponses live there for the call, and the engine retains
        // their bytes.
        let prepared = PreparedLook.existing(look)
        let coded = prepared.map { prepared in
            ContentCoding.allCases.filter { $0 != .identity }.compactMap { coding in
                prepared.pair(PreparedLook.Form(coding: coding, languageFromQuery: true, options: options), of: look).map { (coding: coding, etag: coding.etag(look.etag), ok: $0.ok.wire, notModified: $0.notModified.wire) }
            }
        } ?? []
        let kept = withExtendedLifetime(prepared) {
            engine.put(generation: generation, target: target, tag: look.appKey, etag: look.etag, label: label, ok: ok, notModified: nil,
                       notModifiedFields: head.notModifiedLeading + own, offered: LookEncodings.offered, coded: coded)
        }
        return (kept, ok)
    }
}
