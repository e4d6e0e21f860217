#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bounded memo of palettes by accent, safe to share between threads. A palette depends on the accent
/// alone, and computing one takes microseconds (hue-kept searches), while a service resolves the same few
/// accents again and again. Owned explicitly: pass one to ``Resolver/init(paletteCache:)``.
///
/// When `capacity` accents are stored, the next new one empties the memo first (an app set changes rarely;
/// this keeps memory bounded with no bookkeeping on the hot path).
public final class PaletteCache: @unchecked Sendable {
    public let capacity: Int
    private var palettes: [AccentColor: Palette] = [:]
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// - Parameter capacity: the most accents kept, at least 1.
    public init(capacity: Int = 1_024) {
        self.capacity = max(1, capacity)
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// The palette for `accent`: the stored one, or a new one computed (outside the lock) and stored.
    public func palette(for accent: AccentColor) -> Palette {
        pthread_mutex_lock(mutex)
        let stored = palettes[accent]
        pthread_mutex_unlock(mutex)
        if let stored { return stored }
        let computed = Palette(accent: accent)
        pthread_mutex_lock(mutex)
        if palettes.count >= capacity { palettes.removeAll(keepingCapacity: true) }
        palettes[accent] = computed
        pthread_mutex_unlock(mutex)
        return computed
    }

    /// How many accents are stored now.
    public var count: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return palettes.count
    }
}
