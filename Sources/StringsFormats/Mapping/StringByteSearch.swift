extension String {
    /// Whether the text's UTF-8 holds `byte` (an ASCII byte, to tell a text that needs reading from one that does
    /// not), searched in the string's contiguous bytes by the C library's `memchr` (`UTF8Words.firstIndex(of:in:from:)`):
    /// the generic `utf8.contains` took about 14 instructions a byte, 13.8 of the 407 million instructions of `Linter.lint` on one file of the
    /// `lint-xliff` bench (callgrind, 2 Dec 2026; most of it for unit ids); a loop over the contiguous bytes about 5,
    /// 4.3 of the 274 million of `lookd lint` on one bench file (callgrind, 3 Dec 2026).
    func containsUTF8(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { UTF8Words.firstIndex(of: byte, in: $0, from: 0) < $0.count } ?? utf8.contains(byte)
    }

    /// Whether the text's UTF-8 holds any of the bytes `a`, `b`, `c` and `d` (when given), sought eight at a time
    /// (`UTF8Words`): whether a pattern or a text has MessageFormat syntax (`{`, `}`, `'`, `#`) to read or quote.
    package func containsUTF8(anyOf a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8? = nil) -> Bool {
        utf8.withContiguousStorageIfAvailable { UTF8Words.firstIndex(ofAnyOf: a, b, c, d, in: $0, from: 0) < $0.count }
            ?? utf8.contains { $0 == a || $0 == b || $0 == c || $0 == d }
    }
}
