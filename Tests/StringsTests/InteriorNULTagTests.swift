import Strings
import Testing

/// Found by `make sanitize`: AddressSanitizer reported a heap-buffer-overflow in ICU's `forLanguageTag` under
/// `negotiate(tags:)`. Each tag of a list was copied with `strdup`, which stops at the first NUL, while ICU was
/// given the tag's full length, so it read that many bytes past a copy of a few. A tag with a NUL is not a
/// tag: it must be skipped and the rest of the list decide, without reading outside the tag.
@Suite(.timeLimit(.minutes(10))) struct InteriorNULTagTests {
    let negotiator = LocaleNegotiator(memoSize: 0)

    @Test func aTagWithANULIsSkippedAndTheListGoesOn() {
        #expect(negotiator.negotiate(tags: ["de\u{0}fr", "ja"]) == tag("ja"))
        #expect(negotiator.negotiate(tags: ["\u{0}", "pt-BR"]) == tag("pt-BR"))
        #expect(negotiator.negotiate(tags: ["x", "fr\u{0}", "\u{0}de"]) == .english)
    }

    /// Unfixed, ICU copies 64 MiB from a 3-byte allocation: far past the heap, so this crashes even in a build
    /// without sanitizers; under `make sanitize` the smaller cases above are reported too.
    @Test func aLongTailAfterTheNULIsNeverRead() {
        let tail = String(repeating: "a", count: 64 << 20)
        #expect(negotiator.negotiate(tags: ["de\u{0}" + tail, "ja"]) == tag("ja"))
    }
}
