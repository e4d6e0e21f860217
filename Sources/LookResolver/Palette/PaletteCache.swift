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
///
/// A lookup is one lock, a multiplicative hash of the accent's 48 bits and a linear probe of an open-addressing
/// table at most half full (no `Hasher`: the memo is read on every resolve).
public final class PaletteCache: @unchecked Sendable {
    public let capacity: Int
    /// A power of two, at least twice `capacity`.
    private let slotCount: Int
    /// Per slot: 0 when empty, else the accent's packed channels with bit 48 set.
    private let keys: UnsafeMutablePointer<UInt64>
    /// Per slot: the palette, initialized exactly where `keys` is not 0.
    private let palettes: UnsafeMutablePointer<Palette>
    private var stored = 0
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// - Parameter capacity: the most accents kept, at least 1.
    public init(capacity: Int = 1_024) {
        self.capacity = max(1, capacity)
        var slots = 2
        while slots < 2 * self.capacity { slots *= 2 }
        slotCount = slots
        keys = .allocate(capacity: slots)
        keys.initialize(repeating: 0, count: slots)
        palettes = .allocate(capacity: slots)
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        removeAll()
        keys.deallocate()
        palettes.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// The palette for `accent`: the stored one, or a new one computed (outside the lock) and stored.
    public func palette(for accent: AccentColor) -> Palette {
        let key = UInt64(accent.light.packed) << 24 | UInt64(accent.dark.packed) | 1 << 48
        pthread_mutex_lock(mutex)
        var slot = self.slot(of: key)
        let stored = keys[slot] == key ? palettes[slot] : nil
        pthread_mutex_unlock(mutex)
        if let stored { return stored }
        let computed = Palette(accent: accent)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        slot = self.slot(of: key)
        // Another thread may have stored it meanwhile.
        guard keys[slot] != key else { return palettes[slot] }
        if self.stored >= capacity {
            removeAll()
            slot = self.slot(of: key)
        }
        keys[slot] = key
        (palettes + slot).initialize(to: computed)
        self.stored += 1
        return computed
    }

    /// How many accents are stored now.
    public var count: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return stored
    }

    /// The slot holding `key`, or the empty slot where it would go (the table is never full). Under the lock.
    private func slot(of key: UInt64) -> Int {
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & (slotCount - 1)
        while keys[slot] != 0, keys[slot] != key { slot = (slot + 1) & (slotCount - 1) }
        return slot
    }

    /// Empties the table. Under the lock (or in `deinit`).
    private func removeAll() {
        for slot in 0..<slotCount where keys[slot] != 0 {
            (palettes + slot).deinitialize(count: 1)
            keys[slot] = 0
        }
        stored = 0
    }
}
