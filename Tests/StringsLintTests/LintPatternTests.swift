@testable import StringsLint
import Testing

/// `LintPattern.parse` reads text without `{`, `}` or `'` itself; ICU's parser must read it the same way.
@Suite(.timeLimit(.minutes(10))) struct LintPatternTests {
    static let literal: [String] = [
        "Open settings.",
        "# of items | 50% done, %1$@ and %lld",
        "Grüße 👋🏽 — 日本語 ́combining",
        "",
        "  leading and trailing  ",
        "line\nbreak\ttab",
    ]

    @Test(arguments: literal) func literalTextIsReadAsICUReadsIt(_ pattern: String) throws {
        let fast = try LintPattern.parse(pattern).get()
        let icu = try LintPattern.parseWithICU(pattern).get()
        #expect(fast.arguments.isEmpty && icu.arguments.isEmpty)
        #expect(fast.selectors.isEmpty && icu.selectors.isEmpty)
        #expect(fast.displayText == icu.displayText)
        #expect(fast.displayCodePoints == icu.displayCodePoints)
    }

    static let simpleArguments: [String] = [
        "{arg1} liked your post 7.",
        "{arg2} wurde von {arg1} eingeladen 3.",
        "Grüße 👋🏽 {name_2} — 日本語 {arg1}{arg1}",
        "{a}",
        "# of {arg1} | 50% done",
        "{arg1} und {Arg1} {x9_}",
        "{arg1, number, integer} neue Nachrichten in 17",
        "{arg1, number} MB von 4, 50% fertig — {arg2}",
        "Grüße 👋🏽 {n, number}{n, number, integer}{n}",
        "{arg9} {arg10} {arg0} {args} {Arg2} {arg2}",
    ]

    /// Text with simple `{name}` arguments only is read without ICU: the same arguments (name, type, offset in code
    /// points), no selectors, the same display text as ICU's parse.
    @Test(arguments: simpleArguments) func simpleArgumentsAreReadAsICUReadsThem(_ pattern: String) throws {
        let fast = try #require(LintPattern.parseSimpleArguments(pattern))
        let icu = try LintPattern.parseWithICU(pattern).get()
        #expect(fast.arguments.map(\.name) == icu.arguments.map(\.name))
        #expect(fast.arguments.map(\.type) == icu.arguments.map(\.type))
        #expect(fast.arguments.map(\.offset) == icu.arguments.map(\.offset))
        #expect(fast.arguments.map(\.typeWord) == icu.arguments.map(\.typeWord))
        #expect(fast.arguments.map(\.style) == icu.arguments.map(\.style))
        #expect(icu.selectors.isEmpty && fast.selectors.isEmpty)
        #expect(fast.displayText == icu.displayText)
        #expect(fast.displayCodePoints == icu.displayCodePoints)
    }

    /// `{name, number, integer}` read without ICU, worked out by hand: the argument's name is at offset 7 (counted
    /// from 0: `Grüße ` is 6 code points, then `{`), the display text is `Grüße ` + U+FFFC + ` neu` (11 code points).
    @Test func typedNumberArgumentByHand() throws {
        let fast = try #require(LintPattern.parseSimpleArguments("Grüße {n, number, integer} neu"))
        #expect(fast.arguments.count == 1)
        #expect(fast.arguments.first?.name == "n")
        #expect(fast.arguments.first?.type == .number)
        #expect(fast.arguments.first?.offset == 7)
        #expect(fast.arguments.first?.typeWord == "number")
        // ICU's style part is the text from the comma to the `}`: ` integer`, its space included.
        #expect(fast.arguments.first?.style == " integer")
        #expect(fast.displayText == "Grüße \u{FFFC} neu")
        #expect(fast.displayCodePoints == 11)
        #expect(fast.needsMessageFormatValidation)
    }

    /// A pattern of simple arguments keeps its display text's ends as the pattern's bytes, worked out by hand: the
    /// head is the text before the first `{`, the tail the text after the last `}` (both the whole text without
    /// arguments); the whole display text is written when asked for, each argument as U+FFFC.
    @Test func simpleArgumentsDisplayEndsByHand() throws {
        func ends(_ pattern: LintPattern) -> [String] {
            pattern.withDisplayEnds { [String(decoding: $0, as: UTF8.self), String(decoding: $1, as: UTF8.self)] }
        }
        let cases: [(pattern: String, head: String, tail: String, display: String)] = [
            (" Hallo {arg1}, und {arg2, number}? ", " Hallo ", "? ", " Hallo \u{FFFC}, und \u{FFFC}? "),
            ("{arg1} mag {arg2}", "", "", "\u{FFFC} mag \u{FFFC}"),
            ("Grüße 👋🏽 {n, number, integer}…", "Grüße 👋🏽 ", "…", "Grüße 👋🏽 \u{FFFC}…"),
            ("Nur Text.", "Nur Text.", "Nur Text.", "Nur Text."),
        ]
        for (text, head, tail, display) in cases {
            let pattern = try #require(LintPattern.parseSimpleArguments(text))
            #expect(ends(pattern) == [head, tail], "\(text)")
            #expect(pattern.displayText == display, "\(text)")
        }
        // A display text ICU wrote is its own head and tail.
        #expect(ends(try LintPattern.parse("it''s {n}").get()) == ["it's \u{FFFC}", "it's \u{FFFC}"])
    }

    /// Longer patterns, read a word of eight bytes at a time: at every shift of their bytes against the words (0 to 15
    /// ASCII letters before), with two-, three- and four-byte scalars across the words' edges, the arguments' offsets
    /// and the display text's code points are ICU's.
    @Test func longSimpleArgumentsAreReadAsICUReadsThemAtEveryShift() throws {
        for shift in 0..<16 {
            let pattern = String(repeating: "a", count: shift) + "ü日😀 x {arg1} Grüße 日本語テキスト {arg2, number} 終わり😀ü"
            let fast = try #require(LintPattern.parseSimpleArguments(pattern))
            let icu = try LintPattern.parseWithICU(pattern).get()
            #expect(fast.arguments.map(\.offset) == icu.arguments.map(\.offset), "\(shift)")
            #expect(fast.displayCodePoints == icu.displayCodePoints, "\(shift)")
            // By hand: the text before {arg1} is shift + 6 code points (ü 日 😀 space x space), so arg1's name is at
            // shift + 7; the display text has shift + 6 + 1 + 7 (" Grüße ") + 7 (日本語テキスト) + 1 + 1 + 6 code points.
            #expect(fast.arguments.first?.offset == shift + 7)
            #expect(fast.displayCodePoints == shift + 29)
            #expect(fast.displayText == icu.displayText)
        }
        // A brace or apostrophe in any byte of a word is seen: the pattern is not read without ICU.
        for shift in 0..<16 {
            for stray in ["}", "'"] {
                #expect(LintPattern.parseSimpleArguments(String(repeating: "b", count: shift) + stray + "ü日 {arg1} und mehr Text") == nil)
            }
        }
    }

    /// Anything else goes to ICU: spaces or another type or style inside the braces, numbered arguments, quoting,
    /// stray braces.
    @Test(arguments: ["{ arg1 }", "{arg1,number}", "{arg1, number }", "{arg1, number, ::.0}", "{arg1, number, integer }",
                      "{arg1, date}", "{arg1, number, percent}", "{0} items", "it''s {n}", "a } b", "{arg1", "{}",
                      "{n, plural, other {#}}", "{ärg}", "{arg1, number"])
    func otherPatternsAreNotReadWithoutICU(_ pattern: String) {
        #expect(LintPattern.parseSimpleArguments(pattern) == nil)
    }

    /// A pattern with braces or an apostrophe still goes to ICU: `''` is one apostrophe, `{n}` an argument.
    @Test func quotingAndArgumentsGoToICU() throws {
        let quoted = try LintPattern.parse("it''s {n}").get()
        #expect(quoted.displayText == "it's \u{FFFC}")
        #expect(quoted.arguments.map(\.name) == ["n"])
        #expect(throws: LintPattern.ParseFailure.self) { try LintPattern.parse("unclosed {").get() }
    }
}
