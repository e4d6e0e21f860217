import Testing
@testable import StringsFormats

/// The byte searches over a string's UTF-8; expected answers worked out by hand from the bytes.
@Suite(.timeLimit(.minutes(10))) struct StringByteSearchTests {
    @Test func searchesTheUTF8Bytes() {
        let (open, close, quote, hash) = (UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "'"), UInt8(ascii: "#"))
        #expect("a{b".containsUTF8(anyOf: open, close, quote))
        #expect(!"abc".containsUTF8(anyOf: open, close, quote))
        #expect(!"".containsUTF8(anyOf: open, close, quote))
        // `#` only when asked for.
        #expect(!"# of items".containsUTF8(anyOf: open, close, quote))
        #expect("# of items".containsUTF8(anyOf: open, close, quote, hash))
        // ü is C3 BC in UTF-8: its second byte is found, and no byte of "u" is.
        #expect("Grüße".containsUTF8(anyOf: 0xBC, 0xBC, 0xBC))
        #expect(!"Gruse".containsUTF8(anyOf: 0xBC, 0xC3, 0x80, 0xFF))
        // A substring copied out is searched the same way.
        #expect(String("x{".dropFirst()).containsUTF8(anyOf: open, close, quote))
        #expect("50%".containsUTF8(UInt8(ascii: "%")))
        #expect(!"".containsUTF8(UInt8(ascii: "%")))
        #expect(!"50 percent".containsUTF8(UInt8(ascii: "%")))
        // A string too long to be stored inline, with the byte last, then without it; ü's second byte (0xBC).
        #expect((String(repeating: "a", count: 100) + "|").containsUTF8(UInt8(ascii: "|")))
        #expect(!String(repeating: "a", count: 100).containsUTF8(UInt8(ascii: "|")))
        #expect("Grüße".containsUTF8(0xBC))
    }

    /// Code points counted a word at a time, by hand: `ü` is two bytes, `日` three, `😀` four, each one code point; at
    /// every start and end around them the count is the scalars that start in the range.
    @Test func codePointsAreCountedAtEveryPlace() {
        let scalars = ["a", "ü", "日", "😀", "b", "ü", "c", "日", "😀", "d", "e", "f", "ü"] // 26 bytes
        let text = scalars.joined()
        let starts = scalars.reduce(into: [0]) { $0.append($0.last! + $1.utf8.count) }.dropLast() // each scalar's first byte
        var copy = text
        copy.withUTF8 { bytes in
            #expect(bytes.count == 26)
            for lower in 0...bytes.count {
                for upper in lower...bytes.count {
                    let expected = starts.filter { (lower..<upper).contains($0) }.count
                    #expect(UTF8Words.codePoints(in: bytes, lower..<upper) == expected, "\(lower)..<\(upper)")
                }
            }
        }
    }

    /// Each of the bytes sought is found at every place of the eight-byte words and of the tail after them, in texts of
    /// 1 to 24 bytes of other ASCII and non-ASCII text (bytes near the sought ones: `z` 0x7A, `|` 0x7C, `&` 0x26,
    /// `"` 0x22, `ü` C3 BC); none is found in those texts without it. Worked out from the bytes, by hand.
    @Test func findsAnyOfFourBytesAtEveryPlaceOfAWord() {
        let (open, close, quote, hash) = (UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "'"), UInt8(ascii: "#"))
        let filler = Array("z|&\"ü".utf8) // 6 bytes
        for length in 1...24 {
            let other = (0..<length).map { filler[$0 % filler.count] }
            let otherText = String(decoding: other, as: UTF8.self)
            #expect(!otherText.containsUTF8(anyOf: open, close, quote, hash), "\(length)")
            for place in 0..<length {
                for sought in [open, close, quote, hash] {
                    var bytes = other
                    // Over an ASCII byte only: ü's two bytes stay whole.
                    guard bytes[place] < 0x80 else { continue }
                    bytes[place] = sought
                    let text = String(decoding: bytes, as: UTF8.self)
                    #expect(text.containsUTF8(anyOf: open, close, quote, hash), "\(length) \(place) \(sought)")
                    #expect(text.containsUTF8(anyOf: open, close, quote) == (sought != hash), "\(length) \(place) \(sought)")
                }
            }
        }
    }
}
