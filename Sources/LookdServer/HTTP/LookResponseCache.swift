import HTTPEngine
import Locking
import Strings

/// The SDK fetch's responses in the engine's response cache (`EngineResponseCache`): the fetch route puts the look
/// service's responses (`CachedLook`) there as prepared 200s and 304s tagged with their app key (and a publish here
/// puts its version's every language after answering: `prefill`), and the look cache
/// keeps them coherent through this type (a `DerivedLookCache`: an invalidation of an app purges the entries tagged
/// with its key; a revalidation checks every app filled). The look service knows nothing of it. Thread-safe.
final class LookResponseCache: DerivedLookCache {
    let engine: EngineResponseCache
    /// The languages the first fill of an app version puts at once (`fill`'s `others`): the locales whose own identifier
    /// negotiates to themselves, so that `?lang=<identifier>` asks for each.
    let languages: [LocaleTag]
    /// What is known of the apps in the engine: see `Filled`.
    private let filled = LockedValue(Filled())

    private struct Filled {
        /// The apps filled and their versions, so that a revalidation checks them too (the engine may hold an app the
        /// look cache no longer does). Past `appsLimit` apps, `overflow`: a revalidation empties the whole cache instead.
        var apps: [String: Int] = [:]
        var overflow = false
        /// The apps that may have entries: each is added before each put of its (`tag`) and removed by its drop, so a
        /// drop of an app not here walks no entry (a publish of a new app, or of one never fetched, while the engine
        /// holds 150,000 entries of others). Past `appsLimit` apps, `tagsOverflow`: every drop walks them.
        var tags: Set<String> = []
        var tagsOverflow = false
    }

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
        guard kept, noteFill(appKey: look.appKey, version: look.version), let others, hasRoomForAnApp else { return answer }
        let wanted = languages.map { (locale: $0, target: targetOf($0)) }.filter { $0.target != target }
        putEach(others(wanted.map(\.locale)), wanted, wire: wire, head: head, label: label, options: options, generation: generation, isCurrent: nil)
        return answer
    }

    /// Puts every language of `languages` of `version` of `appKey`, each under `targetOf(locale)` and counted under
    /// `label`, before any fetch asks for it: what a publish does on this node, on its worker after its answer
    /// (`AppRoutes.prefill`), so that the version's first fetches are the engine's too (`fill`'s other languages, all of
    /// them, taken out of the first fetch's way). `looks`: how to build them (`LookService.prepare`: one look per locale
    /// asked for, in their order, or none). Nothing is put when the cache has no room for the whole app (estimated as
    /// `fill` does), when the version was filled already (a fetch came first), or when `looks` gives none of `version`;
    /// the puts stop at the first look not of the locale at its position. Each put reads the purge count afresh and then
    /// asks `isCurrent` (`LookService.holds`: the look service still holds what the looks were built from): a purge of
    /// the app since (a newer publish, an invalidation) ends the prefill, a purge of another app's entries only
    /// retries the put. `options`: the daemon's, as for `fill`. Returns how many entries were put. Thread-safe.
    @discardableResult
    func prefill(appKey: String, version: Int, label: Int, options: LookResponse.Options, targetOf: (LocaleTag) -> String,
                 looks: ([LocaleTag]) -> [CachedLook], isCurrent: () -> Bool) -> Int {
        guard hasRoomForAnApp else { return 0 }
        let built = looks(languages)
        guard let first = built.first, first.version == version, isCurrent(), noteFill(appKey: appKey, version: version) else { return 0 }
        let wire = VersionWire.of(first.shared)
        let head = wire.head(first, options: options)
        let wanted = languages.map { (locale: $0, target: targetOf($0)) }
        return withoutActuallyEscaping(isCurrent) { isCurrent in
            putEach(built, wanted, wire: wire, head: head, label: label, options: options, generation: generation, isCurrent: isCurrent)
        }
    }

    /// Whether the cache has room for one more app's every language, each estimated at the entries' mean (at least
    /// 1 KiB). Thread-safe.
    var hasRoomForAnApp: Bool {
        let usage = engine.usage
        let each = usage.bytes / max(1, usage.entries)
        return usage.bytes + languages.count * max(each, 1_024) <= engine.capacityBytes
    }

    /// Puts `looks` of one app version (sharing `wire` and `head`), each under the target `wanted` gives at its
    /// position, and returns how many were kept. Stops at the first look not of the locale at its position (a look of
    /// another language is never put under this one's target) and at the first put refused. `isCurrent` nil: every
    /// put under `generation` (read before the looks were built). Otherwise each put reads the purge count first and
    /// then asks `isCurrent` (false ends the puts); a put refused (a purge in between) is tried twice more so.
    @discardableResult
    private func putEach(_ looks: [CachedLook], _ wanted: [(locale: LocaleTag, target: String)], wire: VersionWire, head: VersionWire.Head,
                         label: Int, options: LookResponse.Options, generation: UInt64, isCurrent: (() -> Bool)?) -> Int {
        var count = 0
        for (built, other) in zip(looks, wanted) {
            guard built.locale == other.locale else { break }
            var kept = false
            for _ in 0..<(isCurrent == nil ? 1 : 3) where !kept {
                var since = generation
                if let isCurrent {
                    since = engine.generation
                    guard isCurrent() else { return count }
                }
                let (done, ok) = put(built, wire: wire, head: head, target: other.target, label: label, generation: since, options: options)
                he_prepared_release(ok)
                kept = done
            }
            guard kept else { break }
            count += 1
        }
        return count
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

    /// Notes that `appKey` may have entries from now on: before each put of its and after that put read the purge count,
    /// so that a drop that removed the note before this call either walks the entry or refuses the put.
    private func tag(_ appKey: String) {
        filled.withLock { filled in
            if filled.tags.count >= Self.appsLimit && !filled.tags.contains(appKey) {
                filled.tagsOverflow = true
            } else {
                filled.tags.insert(appKey)
            }
        }
    }

    func drop(appKey: String?) {
        guard let appKey else {
            filled.withLock { $0 = Filled() }
            engine.purge(tag: nil)
            return
        }
        // Puts in flight are refused first. Then, when no put of the app was noted (`tag`) before the check below, the
        // engine holds none of its entries and none is walked: each put notes its app after reading the purge count, so
        // a put noted after the check is refused if it read the count before the refusal, and otherwise puts what the
        // look service answered after the invalidation that drops the app — and is noted for the next drop. A put
        // noted before the check is walked (the walk refuses it too if it has not put yet).
        engine.refusePuts()
        let walk = filled.withLock { filled in
            filled.apps[appKey] = nil
            return filled.tags.remove(appKey) != nil || filled.tagsOverflow
        }
        if walk { engine.purge(tag: appKey) }
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
        tag(look.appKey)   // after the purge count was read, before the put: see `drop`
        let kept = withExtendedLifetime(prepared) {
            engine.put(generation: generation, target: target, tag: look.appKey, etag: look.etag, label: label, ok: ok, notModified: nil,
                       notModifiedFields: head.notModifiedLeading + own, offered: LookEncodings.offered, coded: coded)
        }
        return (kept, ok)
    }
}
