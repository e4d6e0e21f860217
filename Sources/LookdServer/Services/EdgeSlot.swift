import Locking

/// Where the HTTP edge keeps what it derives, once, from a service's value (for an SDK fetch response: its compressed
/// bodies and prepared 200s and 304s, `PreparedLook`; for an app version's shared body pieces: the engine's copy of
/// them), so that a cached value's next request derives nothing. Services create it with the
/// value and never read it; it knows no HTTP type. One slot per value, shared by every copy of it (a class), freed
/// with the last copy. Thread-safe: the first `value` call of two racing ones stores its result, both get that one.
final class EdgeSlot: Sendable {
    private let slot = LockedValue<(any Sendable & AnyObject)?>(nil)

    /// The object kept here, made by `make` when there is none (or when another type is kept: replaced).
    func value<Kept: Sendable & AnyObject>(_ make: () -> Kept) -> Kept {
        if let kept = slot.withLock({ $0 }) as? Kept { return kept }
        let made = make()
        return slot.withLock { slot in
            if let kept = slot as? Kept { return kept }
            slot = made
            return made
        }
    }
}
