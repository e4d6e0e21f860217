/// A slot for one object made on first use and then shared: every copy of a value that holds the slot (it is a
/// class) sees the object the first `value(_:)` call stored, and it is freed with the last copy.
///
/// A value type uses it to carry what its consumers derive from it, once, without knowing what that is: the
/// daemon's services keep one in each cached look, and the HTTP edge keeps its prepared responses there; the
/// service never reads it.
///
/// Thread-safe: of two racing first calls, the one that stores first wins and both get its object (the other's
/// `make` result is dropped). `make` runs outside the lock, so it may take time or use other locks.
public final class LazySlot: Sendable {
    private let slot = LockedValue<(any Sendable & AnyObject)?>(nil)

    public init() {}

    /// The object kept here when there is one of type `Kept`, else nil (nothing is made).
    public func existing<Kept: Sendable & AnyObject>(_ type: Kept.Type = Kept.self) -> Kept? {
        slot.withLock { $0 } as? Kept
    }

    /// The object kept here, made by `make` when there is none. A slot keeps one object: asked for another type
    /// than the one it holds, it replaces it with `make`'s.
    public func value<Kept: Sendable & AnyObject>(_ make: () -> Kept) -> Kept {
        if let kept = slot.withLock({ $0 }) as? Kept { return kept }
        let made = make()
        return slot.withLock { slot in
            if let kept = slot as? Kept { return kept }
            slot = made
            return made
        }
    }
}
