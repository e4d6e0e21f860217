import FNV
import Synchronization

/// The parsed messages of one catalog set, one slot per (locale, source key), each filled on first use.
///
/// Reads are lock-free: the key → index map is built once and never changes, and each slot is an atomic word
/// holding a retained `Entry` pointer (0 while empty): one acquiring load once filled. Two threads that race to
/// fill a slot both parse; the first compare-exchange wins and the other copy is dropped. (`AtomicLazyReference`
/// does the same but its `load` is not specialised across modules and cost ~100 ns of metadata lookups.)
final class MessageTable: @unchecked Sendable {
    // @unchecked: `slots` is written only through the atomics inside it, allocated once in init and freed in
    // deinit; `keyIndex` is immutable.

    /// A parsed message and the catalog it came from.
    final class Entry: Sendable {
        let formatter: MessageFormatter
        let servedBy: LocaleTag

        init(formatter: MessageFormatter, servedBy: LocaleTag) {
            self.formatter = formatter
            self.servedBy = servedBy
        }
    }

    private let keyIndex: KeyIndex
    private let keyCount: Int
    private let slots: UnsafeMutablePointer<Atomic<Int>>

    init(keys: some Collection<String>) {
        keyIndex = KeyIndex(keys)
        keyCount = keyIndex.count
        let count = max(keyCount * LocaleTag.allIncludingPseudo.count, 1)
        slots = .allocate(capacity: count)
        for slot in 0..<count { (slots + slot).initialize(to: Atomic<Int>(0)) }
    }

    deinit {
        let count = max(keyCount * LocaleTag.allIncludingPseudo.count, 1)
        for slot in 0..<count {
            let bits = slots[slot].load(ordering: .acquiring)
            if let pointer = UnsafeRawPointer(bitPattern: bits) { Unmanaged<Entry>.fromOpaque(pointer).release() }
        }
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// The slot of (locale, key), or nil when the key is not a source key.
    @inline(__always)
    func slot(key: String, locale: LocaleTag) -> Int? {
        guard let index = keyIndex.index(of: key) else { return nil }
        return locale.index * keyCount + index
    }

    /// The entry in `slot`, if it has been filled.
    @inline(__always)
    func entry(_ slot: Int) -> Entry? {
        guard let pointer = UnsafeRawPointer(bitPattern: slots[slot].load(ordering: .acquiring)) else { return nil }
        return Unmanaged<Entry>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Fills `slot` unless another thread did first; returns the entry that is stored.
    func store(_ entry: Entry, in slot: Int) -> Entry {
        let retained = Unmanaged.passRetained(entry)
        let bits = Int(bitPattern: retained.toOpaque())
        let (exchanged, original) = slots[slot].compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing)
        if exchanged { return entry }
        retained.release()
        return Unmanaged<Entry>.fromOpaque(UnsafeRawPointer(bitPattern: original)!).takeUnretainedValue()
    }
}

/// An immutable string → index map for the catalog's keys: open addressing with FNV-1a over the UTF-8 bytes.
/// Built once; a lookup hashes a 10–30 byte key in a few nanoseconds, where `Dictionary`'s per-process-seeded
/// SipHash costs several times that on every format call.
struct KeyIndex: Sendable {
    private let keys: [String?]
    private let indices: [Int]
    private let mask: Int
    let count: Int

    init(_ source: some Collection<String>) {
        let unique = Array(Set(source)).sorted()
        var size = 16
        while size < unique.count * 4 { size *= 2 }
        var keys = [String?](repeating: nil, count: size)
        var indices = [Int](repeating: -1, count: size)
        for (index, key) in unique.enumerated() {
            var slot = Self.hash(key) & (size - 1)
            while keys[slot] != nil { slot = (slot + 1) & (size - 1) }
            keys[slot] = key
            indices[slot] = index
        }
        self.keys = keys
        self.indices = indices
        mask = size - 1
        count = unique.count
    }

    /// The key's index (0 ..< count), or nil when it is not one of the keys.
    @inline(__always)
    func index(of key: String) -> Int? {
        var slot = Self.hash(key) & mask
        while let candidate = keys[slot] {
            if candidate == key { return indices[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    @inline(__always)
    static func hash(_ key: String) -> Int {
        let hash = FNV1a64.hash(key.utf8)
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
