import Locking

/// The `br` and `gzip` bodies of one SDK fetch response: the same bytes compressed. Computed once, when a request that
/// accepts a coding first needs them, and kept with the look's prepared responses (`PreparedLook`, in the look's `edge`
/// slot), so every copy of the look and the engine's response cache share them. Compressing takes milliseconds (brotli
/// at quality 11: about 4–9 ms for a 3 KB body on the build machine), so it is only ever done on a worker, never on an
/// event loop (`compute`). Thread-safe.
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

    /// Compresses `body` (the look's identity body) in every coding but identity, once (a second call returns at once;
    /// two racing calls both compress and the first to finish is kept, so the bytes never change once seen).
    /// Milliseconds: off the event loop only.
    func compute(from body: [UInt8]) {
        guard !isComputed else { return }
        var coded: [ContentCoding: [UInt8]] = [:]
        for coding in ContentCoding.allCases where coding != .identity {
            coded[coding] = coding == .br ? Brotli.compress(body) : Gzip.compress(body)
        }
        computed.withLock { if $0 == nil { $0 = coded } }
    }
}
