#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Searches and counts over UTF-8 bytes eight at a time (one 64-bit word), for texts read once per message:
/// MessageFormat syntax sought in a text to quote or a pattern to parse (`String.containsUTF8(anyOf:)`), and the braces
/// and code points of the printf units' patterns (`LintPattern.parseSimpleArguments`, source and translation). Byte by
/// byte, the search of `ICUMessage.quote` and `LintPattern.parse` took 3.7 of the 229 million instructions of `lookd
/// lint` on one `lint-xliff` bench file; with words for its search and count, `parseSimpleArguments` takes 6.5 instead
/// of 7.4 of 227 million (callgrind, 3 Dec 2026). Exact: each word test is true exactly when a byte of the word is what is sought ("Bit
/// Twiddling Hacks", haszero); the bytes after the last whole word are read one by one.
package enum UTF8Words {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The first index from `start` of a byte equal to `a`, `b`, `c` or `d` (when given), else `bytes.count`.
    package static func firstIndex(ofAnyOf a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8? = nil,
                                   in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let d = d ?? a
        var index = start
        let count = bytes.count
        if let base = bytes.baseAddress {
            func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
            let (wordA, wordB, wordC, wordD) = (ones &* UInt64(a), ones &* UInt64(b), ones &* UInt64(c), ones &* UInt64(d))
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if hasZeroByte(word ^ wordA) || hasZeroByte(word ^ wordB) || hasZeroByte(word ^ wordC) || hasZeroByte(word ^ wordD) { break }
                index += 8
            }
        }
        while index < count, bytes[index] != a, bytes[index] != b, bytes[index] != c, bytes[index] != d { index += 1 }
        return index
    }

    /// The first index from `start` of `byte`, else `bytes.count`, found by the C library's `memchr`: reading a
    /// printf text byte by byte for its `%`s took `PrintfDialect.parse` about five instructions a byte.
    package static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count,
              let found = memchr(base + start, Int32(byte), bytes.count - start) else { return bytes.count }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// The code points whose UTF-8 starts in `range` of well-formed `bytes`: its bytes that are no continuation byte
    /// (`10xxxxxx`; in a word, a byte whose top bit is set and whose next bit, shifted up, is not).
    package static func codePoints(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var index = range.lowerBound
        var points = 0
        if let base = bytes.baseAddress {
            while index + 8 <= range.upperBound {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                points += 8 - (word & ~(word << 1) & highs).nonzeroBitCount
                index += 8
            }
        }
        while index < range.upperBound {
            if bytes[index] & 0xC0 != 0x80 { points += 1 }
            index += 1
        }
        return points
    }
}
