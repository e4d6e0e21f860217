#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// Whether the text's UTF-8 holds `byte` (an ASCII byte, to tell a text that needs reading from one that does
    /// not), searched in the string's contiguous bytes by the C library's `memchr`: the generic `utf8.contains` took
    /// about 14 instructions a byte, 13.8 of the 407 million instructions of `Linter.lint` on one file of the
    /// `lint-xliff` bench (callgrind, 2 Dec 2026; most of it for unit ids); a loop over the contiguous bytes about 5,
    /// 4.3 of the 274 million of `lookd lint` on one bench file (callgrind, 3 Dec 2026).
    func containsUTF8(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(base, Int32(byte), bytes.count) != nil
        } ?? utf8.contains(byte)
    }

    /// Whether the text's UTF-8 holds any of the bytes `a`, `b`, `c` and `d` (when given): whether a pattern or a
    /// text has MessageFormat syntax (`{`, `}`, `'`, `#`) to read or quote. Eight bytes at a time: a word holds byte
    /// `t` exactly when `word ^ t×0x0101…` has a zero byte ("Bit Twiddling Hacks", haszero); the bytes after the last
    /// whole word one by one. Byte by byte (a predicate over the contiguous bytes), `ICUMessage.quote` and
    /// `LintPattern.parse` took 3.7 of the 229 million instructions of `lookd lint` on one `lint-xliff` bench file
    /// (callgrind, 3 Dec 2026).
    package func containsUTF8(anyOf a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8? = nil) -> Bool {
        let d = d ?? a
        return utf8.withContiguousStorageIfAvailable { bytes in
            let count = bytes.count
            var index = 0
            if let base = bytes.baseAddress {
                let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
                func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
                let (wordA, wordB, wordC, wordD) = (ones &* UInt64(a), ones &* UInt64(b), ones &* UInt64(c), ones &* UInt64(d))
                while index + 8 <= count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if hasZeroByte(word ^ wordA) || hasZeroByte(word ^ wordB) || hasZeroByte(word ^ wordC) || hasZeroByte(word ^ wordD) {
                        return true
                    }
                    index += 8
                }
            }
            while index < count {
                let byte = bytes[index]
                if byte == a || byte == b || byte == c || byte == d { return true }
                index += 1
            }
            return false
        } ?? utf8.contains { $0 == a || $0 == b || $0 == c || $0 == d }
    }
}
