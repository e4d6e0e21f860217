import Locking

/// What the engine's response cache shares among the SDK fetch responses of one app version, kept in the version's
/// shared body pieces' edge slot (`FetchBody.Shared.edge`) for as long as those pieces or an entry live: the pieces'
/// bytes in the engine (`bytes`, which each language's 200 references), and per daemon options the head prefix of the
/// identity 200s (`head`: every field before the ETag, which each 200 references instead of holding 140 bytes of its
/// own: docs/benchmarks.md, run Q) with the 304's fields before the ETag. Thread-safe.
final class VersionWire: Sendable {
    /// One form's shared head.
    struct Head: Sendable {
        /// The 200's fields before the ETag (`LookResponse.leadingFields`).
        let leading: [(name: String, value: String)]
        /// The 200's status line and `leading`, in the engine.
        let prefix: EngineHeadPrefix
        /// The 304's fields before the ETag, as wire bytes (`wireFields`).
        let notModifiedLeading: [UInt8]
    }

    let bytes: EngineBytes
    private let heads = LockedValue<[LookResponse.Options: Head]>([:])

    init(_ shared: FetchBody.Shared) {
        bytes = EngineBytes(shared.bytes)
    }

    /// The version's wire, made on first use.
    static func of(_ shared: FetchBody.Shared) -> VersionWire {
        shared.edge.value { VersionWire(shared) }
    }

    /// The shared head of `look`'s identity 200 and 304 (the look is this version's) when `?lang=` decided the language,
    /// under `options`, made on first use.
    func head(_ look: CachedLook, options: LookResponse.Options) -> Head {
        if let made = heads.withLock({ $0[options] }) { return made }
        let leading = LookResponse.leadingFields(language: look.locale.identifier, appKey: look.appKey, languageFromQuery: true, options: options)
        let made = Head(leading: leading, prefix: EngineHeadPrefix(status: 200, headers: leading),
                        notModifiedLeading: wireFields(Array(leading.dropFirst())))
        return heads.withLock { heads in
            if let kept = heads[options] { return kept }
            heads[options] = made
            return made
        }
    }
}
