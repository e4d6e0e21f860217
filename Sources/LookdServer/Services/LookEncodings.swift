import Locking

/// The `br` and `gzip` bodies of one SDK fetch response (`CachedLook`): the same bytes compressed. Computed once, when
/// a request that accepts a coding first needs them, and shared by every copy of the look and by the engine's response
/// cache (the edge makes their header fields and prepared responses: `PreparedLook`). Compressing takes milliseconds
/// (brotli at quality 11: about 4–9 ms for a 3 KB body on the build machine), so it is only ever done on a worker,
/// never on an event loop (`compute`). Thread-safe.
final class LookEncodings: Sendable {
    private let computed = LockedValue<[ContentCoding: [UInt8]]?>(nil)

    /// The codings a fetch response is offered in (identity included).
    static let offered: [ContentCoding] = ContentCoding.allCases

    /// Whether `compute` has run.
    var isComputed: Bool { computed.withLock { $0 != nil } }

    /// The body in `coding` (gzip or br), or nil before `compute` (and for identity).
    func body(_ coding: ContentCoding) -> [UInt8]? {
        computed.withLock { $0?[coding] }
    }

    /// Compresses `look`'s body in every coding but identity, once (a second call returns at once; two racing calls
    /// both compress and the first to finish is kept, so the bytes never change once seen). Milliseconds: off the
    /// event loop only.
    func compute(for look: CachedLook) {
        guard !isComputed else { return }
        var coded: [ContentCoding: [UInt8]] = [:]
        for coding in ContentCoding.allCases where coding != .identity {
            coded[coding] = coding == .br ? Brotli.compress(look.body) : Gzip.compress(look.body)
        }
        computed.withLock { if $0 == nil { $0 = coded } }
    }
}
