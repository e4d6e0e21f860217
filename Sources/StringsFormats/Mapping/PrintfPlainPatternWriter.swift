/// Writes format strings of text and arguments only as their ICU patterns while `PrintfDialect.read` reads them:
/// what `PrintfMessage.plainPattern` writes from the pieces `PrintfDialect.parse` returns, without those pieces. Text is
/// copied as it is read and quoted (`ICUMessage.quote`) only when it holds MessageFormat syntax; each argument is
/// written as the legend has it. A value type: one writer is kept for many texts (one at a time), its buffer reused.
///
/// Parsing every printf text of an Xcode export into pieces, then writing their pattern from the pieces, took
/// 8.6 + 10.9 of the 220 million instructions of `lookd lint` on one `lint-xliff` bench file (callgrind, 3 Dec 2026).
struct PrintfPlainPatternWriter: PrintfReadingSink {
    private var legend = ArgumentLegend(entries: [])
    /// The pattern being written; its storage is kept from text to text.
    private var output: [UInt8] = []
    /// Where the text read since the last argument starts in `output`.
    private var textStart = 0
    /// False once a plural's count or slot was read: the message is no plain one.
    private var isPlain = true

    init() {}

    /// The ICU pattern of format string `text` outside any plural, read by `dialect` with `legend`: what
    /// `PrintfMessage.plainPattern` gives for the pieces `dialect.parse(text, legend: legend, countArgument: nil, key:,
    /// locale:)` returns (never more than text and arguments). Nil where `parse` throws: the caller parses the text to
    /// report why.
    mutating func pattern(of text: String, legend: ArgumentLegend, dialect: PrintfDialect) -> String? {
        // What `parse` returns as one text piece, of which `plainPattern` is the text quoted.
        guard !legend.entries.isEmpty, text.containsUTF8(UInt8(ascii: "%")) else { return ICUMessage.quote(text, inPlural: false, followed: false) }
        self.legend = legend
        // The storage of the previous text's pattern, written over: one allocation for all texts, not one each (2.2 of
        // the 211 million instructions of `lookd lint` on one `lint-xliff` bench file, callgrind, 3 Dec 2026).
        output.removeAll(keepingCapacity: true)
        textStart = 0
        isPlain = true
        var storage = text
        let read: Void? = storage.withUTF8 { bytes in
            try? dialect.read(bytes, text: text, legend: legend, countArgument: nil, slots: [:], fail: { reason, kind in
                ConversionError(key: nil, reason: reason, kind: kind)
            }, into: &self)
        }
        guard read != nil, isPlain else { return nil }
        quoteText(followed: false)
        return String(decoding: output, as: UTF8.self)
    }

    mutating func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes))
    }

    mutating func character(_ byte: UInt8) { output.append(byte) }

    mutating func piece(_ piece: PrintfMessage.Piece) {
        guard case .argument(let number) = piece, number >= 1, number <= legend.entries.count else {
            isPlain = false
            return
        }
        quoteText(followed: true)
        let entry = legend.entries[number - 1]
        ICUMessage.writeArgument(name: entry.name, type: entry.type, style: entry.style, into: &output)
        textStart = output.count
    }

    /// Quotes the text since the last argument as `ICUMessage.quote` does (`followed`: an argument comes right
    /// after it), when it holds a `{`, `}` or `'` (most text holds none: it stays as it was copied).
    private mutating func quoteText(followed: Bool) {
        let start = textStart
        let found = output.withUnsafeBufferPointer { bytes in
            UTF8Words.firstIndex(ofAnyOf: UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "'"), in: bytes, from: start)
        }
        guard found < output.count else { return }
        let text = String(decoding: output[start...], as: UTF8.self)
        output.replaceSubrange(start..., with: ICUMessage.quote(text, inPlural: false, followed: followed).utf8)
    }
}
