@testable import StringsLint
import Testing

/// `unicodeScalarCount` counts scalars from the UTF-8 bytes; the counts are worked out by hand.
@Suite(.timeLimit(.minutes(10))) struct StringScalarCountTests {
    @Test func countsScalarsNotBytesOrCharacters() {
        #expect("".unicodeScalarCount == 0)
        #expect("Open settings.".unicodeScalarCount == 14)
        // G r ü ß e, a space, 👋 and its skin-tone modifier 🏽: 8 scalars (one character for the hand), 14 bytes.
        #expect("Grüße 👋🏽".unicodeScalarCount == 8)
        // e and a combining acute accent: 2 scalars, 1 character; 日本: 2 scalars of 3 bytes each.
        #expect("e\u{301}日本".unicodeScalarCount == 4)
        // A string that is not stored as native UTF-8 (a substring copied out) counts the same.
        #expect(String("xGrüße".dropFirst()).unicodeScalarCount == 5)
    }
}
