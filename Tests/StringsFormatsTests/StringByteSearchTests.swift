import Testing
@testable import StringsFormats

/// The byte searches over a string's UTF-8; expected answers worked out by hand from the bytes.
@Suite(.timeLimit(.minutes(10))) struct StringByteSearchTests {
    @Test func searchesTheUTF8Bytes() {
        let brace = { (byte: UInt8) in byte == UInt8(ascii: "{") }
        #expect("a{b".containsUTF8(where: brace))
        #expect(!"abc".containsUTF8(where: brace))
        #expect(!"".containsUTF8(where: brace))
        // ü is C3 BC in UTF-8: its second byte is found, and no byte of "u" is.
        #expect("Grüße".containsUTF8(where: { $0 == 0xBC }))
        #expect(!"Gruse".containsUTF8(where: { $0 >= 0x80 }))
        // A substring copied out is searched the same way.
        #expect(String("x{".dropFirst()).containsUTF8(where: brace))
        #expect("50%".containsUTF8(UInt8(ascii: "%")))
        #expect(!"".containsUTF8(UInt8(ascii: "%")))
        #expect(!"50 percent".containsUTF8(UInt8(ascii: "%")))
        // A string too long to be stored inline, with the byte last, then without it; ü's second byte (0xBC).
        #expect((String(repeating: "a", count: 100) + "|").containsUTF8(UInt8(ascii: "|")))
        #expect(!String(repeating: "a", count: 100).containsUTF8(UInt8(ascii: "|")))
        #expect("Grüße".containsUTF8(0xBC))
    }
}
