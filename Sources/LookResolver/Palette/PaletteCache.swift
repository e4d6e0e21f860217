import Locking

/// A bounded memo of palettes by accent, safe to share between threads (one ``Locking/Lock`` around a
/// dictionary). A palette depends on the accent alone, and computing one takes microseconds (hue-kept searches),
/// while a service resolves the same few accents again and again. Owned explicitly: pass one to
/// ``Resolver/init(paletteCache:)``.
///
/// When `capacity` accents are stored, the next new one empties the memo first (an app set changes rarely;
/// this keeps memory bounded with no bookkeeping on the hot path).
public final class PaletteCache: Sendable {
    /// The most accents kept, at least 1.
    public let capacity: Int
    private let palettes = LockedValue<[AccentColor: Palette]>([:])

    /// - Parameter capacity: the most accents kept; values below 1 count as 1.
    public init(capacity: Int = 1_024) {
        self.capacity = max(1, capacity)
    }

    /// The palette for `accent`: the stored one, or a new one computed (outside the lock) and stored.
    public func palette(for accent: AccentColor) -> Palette {
        if let stored = palettes.withLock({ $0[accent] }) { return stored }
        let computed = Palette(accent: accent)
        return palettes.withLock { palettes in
            // Another thread may have stored it meanwhile.
            if let stored = palettes[accent] { return stored }
            if palettes.count >= capacity { palettes.removeAll(keepingCapacity: true) }
            palettes[accent] = computed
            return computed
        }
    }

    /// How many accents are stored now.
    public var count: Int {
        palettes.withLock { $0.count }
    }
}
