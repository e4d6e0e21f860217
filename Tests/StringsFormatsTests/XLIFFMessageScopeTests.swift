@testable import StringsFormats
import Testing

/// `XLIFFMessageScope.scoped` over three `<file>`s, worked out by hand from its rule: a message whose key an earlier
/// file has, or a unit id repeated inside the file, is keyed by the file's `original` (`ORIGINAL|…`, a `.stringsdict`
/// path `/ORIGINAL|…`); the keys a file adds (a keyed one as keyed) are the earlier keys of the next files.
@Suite struct XLIFFMessageScopeTests {
    @Test func messagesAreKeyedByTheirFileWhenAnEarlierFileOrTheSameIdHasThem() {
        var used = XLIFFMessageScope.Used()
        // A: `k` twice (the second keyed), a plural `p` of two units (one message, not a repeat), nothing earlier.
        #expect(XLIFFMessageScope.scoped(["k", "p|==|plural.one", "p|==|plural.other", "k"], original: "A.xcstrings", used: &used)
            == ["k", "p|==|plural.one", "p|==|plural.other", "A.xcstrings|k"])
        // B: `k` and `p` are A's keys, `A.xcstrings|k` is A's keyed key; `q` is new; a plain `p2` then a plural of key
        // `p2` in the same file: different ids, kept.
        #expect(XLIFFMessageScope.scoped(["k", "p", "q", "A.xcstrings|k", "p2", "p2|==|plural.one"], original: "B.strings", used: &used)
            == ["B.strings|k", "B.strings|p", "q", "B.strings|A.xcstrings|k", "p2", "p2|==|plural.one"])
        // C (no original: the prefix is `|`): B's `q` as a `.stringsdict` path keeps its leading `/`; a plural unit id
        // repeated in the file is keyed the second time; `x` is new; `B.strings|k` is B's keyed key.
        #expect(XLIFFMessageScope.scoped(["/q:dict/NSStringLocalizedFormatKey:dict/:string", "r|==|plural.one", "r|==|plural.one", "x", "B.strings|k"],
                                         original: nil, used: &used)
            == ["/|q:dict/NSStringLocalizedFormatKey:dict/:string", "r|==|plural.one", "|r|==|plural.one", "x", "|B.strings|k"])
        // D: C's keyed keys (`|q`, `|r`) and plain ones (`x`, `r`) are earlier keys; `y` twice in D, keyed the second time.
        #expect(XLIFFMessageScope.scoped(["|q", "|r|==|plural.other", "x", "r", "y", "y"], original: "D", used: &used)
            == ["D||q", "D||r|==|plural.other", "D|x", "D|r", "y", "D|y"])
    }
}
