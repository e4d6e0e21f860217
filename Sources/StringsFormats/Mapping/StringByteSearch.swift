extension String {
    /// Whether the text's UTF-8 holds `byte` (an ASCII byte, to tell a text that needs reading from one that does
    /// not), searched in the string's contiguous bytes: the generic `utf8.contains` took about 14 instructions a
    /// byte, 13.8 of the 407 million instructions of `Linter.lint` on one file of the `lint-xliff` bench (callgrind,
    /// 2 Dec 2026; most of it for unit ids).
    func containsUTF8(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }
}
