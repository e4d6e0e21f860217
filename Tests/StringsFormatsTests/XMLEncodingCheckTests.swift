import Testing
@testable import StringsFormats

/// The UTF-8 check made before the XML parser runs (see `XMLEncodingCheck`); every expectation is from UTF-8's
/// definition (RFC 3629 §3 and §4), worked out by hand, and placed around the eight-byte steps the check takes.
@Suite(.timeLimit(.minutes(10))) struct XMLEncodingCheckTests {
    @Test("well-formed UTF-8 is valid, wherever its multi-byte sequences fall")
    func valid() {
        let texts: [[UInt8]] = [
            [], Array("abc".utf8), Array("héllo".utf8),
            Array("0123456789abcdefé".utf8), // é after two ASCII words
            Array("1234567é".utf8), // é's two bytes across the first eight-byte boundary
            Array("1234567€12345678".utf8), // three bytes across it, ASCII words after
            [0xF4, 0x8F, 0xBF, 0xBF], // U+10FFFF, the last scalar
            [0xF0, 0x9F, 0x98, 0x80, 0x41], // U+1F600 then A
            [0xEF, 0xBB, 0xBF] + Array("<a/>".utf8), // a byte order mark
        ]
        for bytes in texts {
            #expect(XMLEncodingCheck.isValidUTF8(bytes), "\(bytes)")
        }
    }

    @Test("truncated, overlong, surrogate, out-of-range and stray bytes are invalid")
    func invalid() {
        let texts: [[UInt8]] = [
            [0xC3], // a lead byte and nothing after it
            [0xC3, 0x41], // a lead byte followed by ASCII
            Array("1234567".utf8) + [0xE2, 0x82] + Array("12345678".utf8), // two of three bytes, then ASCII words
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], // overlong '/'
            [0xED, 0xA0, 0x80], // U+D800, a surrogate
            [0xF4, 0x90, 0x80, 0x80], // above U+10FFFF
            [0xF5, 0x80, 0x80, 0x80], [0xFF], // bytes UTF-8 never uses
            [0x80], Array("abcdefgh".utf8) + [0xBF], // a continuation byte alone
            Array("0123456789abcdef".utf8) + [0xFF] + Array("xyz".utf8),
            Array("é".utf8) + [0xA9], // one continuation byte too many
        ]
        for bytes in texts {
            #expect(!XMLEncodingCheck.isValidUTF8(bytes), "\(bytes)")
        }
    }

    @Test("the first invalid byte is placed by line and column in Unicode scalars")
    func position() {
        // Line 2 is "c", "é", then 0xFF: column 3.
        let found = XMLEncodingCheck.firstInvalidByte(Array("ab\ncé".utf8) + [0xFF])
        #expect(found?.position == FilePosition(line: 2, column: 3))
        #expect(found?.byte == 0xFF)
        #expect(XMLEncodingCheck.firstInvalidByte(Array("<a>é</a>".utf8)) == nil)
    }
}
