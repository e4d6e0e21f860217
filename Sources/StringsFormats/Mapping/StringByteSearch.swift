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

    /// Whether a byte of the text's UTF-8 satisfies `predicate`, searched in the contiguous bytes like
    /// `containsUTF8(_:)`: with it in `ICUMessage.quote` instead of the generic `utf8.contains(where:)` (6.1 M),
    /// `lookd lint` on one `lint-xliff` bench file took 386 instead of 389 million instructions (callgrind, 2 Dec 2026).
    func containsUTF8(where predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(where: predicate) } ?? utf8.contains(where: predicate)
    }
}
