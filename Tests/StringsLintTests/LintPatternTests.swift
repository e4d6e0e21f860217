@testable import StringsLint
import Testing

/// `LintPattern.parse` reads text without `{`, `}` or `'` itself; ICU's parser must read it the same way.
@Suite(.timeLimit(.minutes(2))) struct LintPatternTests {
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

    /// A pattern with braces or an apostrophe still goes to ICU: `''` is one apostrophe, `{n}` an argument.
    @Test func quotingAndArgumentsGoToICU() throws {
        let quoted = try LintPattern.parse("it''s {n}").get()
        #expect(quoted.displayText == "it's \u{FFFC}")
        #expect(quoted.arguments.map(\.name) == ["n"])
        #expect(throws: LintPattern.ParseFailure.self) { try LintPattern.parse("unclosed {").get() }
    }
}
