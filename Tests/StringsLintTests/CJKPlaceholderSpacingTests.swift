import Foundation
@testable import StringsLint
import Strings
import Testing

/// `space-around-cjk-placeholder`: a space between a date/time argument and Chinese or Japanese text, on a side
/// where ICU shows the argument as CJK text; and the whitespace check's full-width punctuation exception.
@Suite(.timeLimit(.minutes(10))) struct CJKPlaceholderSpacingTests {
    let renews = #"{"k": "{product} renews {date, date, ::dMMM}"}"#
    let readAt = #"{"k": "Read {time, time, short}"}"#

    private func spacing(_ locale: String, _ source: String, _ translation: String) throws -> [LintFinding] {
        try findings(of: .spaceAroundCJKPlaceholder, locale, source: source, translation: translation)
    }

    @Test func aSpaceBetweenADateAndTheFollowingHanIsReportedAtTheSpace() throws {
        let findings = try spacing("zh-Hans", renews, "{product} 将于 {date, date, ::dMMM} 续订")
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.severity == .warning)
        #expect(finding.position == SourcePosition(line: 1, column: 41)) // `{"k": "` is 7 columns; the space is scalar 33 of the value
        #expect(finding.message.contains("{date}") && finding.message.contains("11月3日"))
        #expect(finding.subject == "date:after")
    }

    @Test func theDigitSideAndAGaplessDateAreClean() throws {
        // "将于 11月3日": the date starts with digits, and a space between Han and digits is Apple's style.
        #expect(try spacing("zh-Hans", renews, "{product} 将于 {date, date, ::dMMM}续订").isEmpty)
        #expect(try spacing("zh-Hant", renews, "{product} 將於{date, date, ::dMMM}續訂").isEmpty)
        #expect(try spacing("ja", renews, "{product}は{date, date, ::dMMM}に更新されます").isEmpty)
    }

    @Test func theRenderingOfTheLocaleDecides() throws {
        // zh-Hans shows a short time as "01:05" (digits), zh-Hant as "凌晨1:05" (Han first).
        #expect(try spacing("zh-Hans", readAt, "已读 {time, time, short}").isEmpty)
        let hant = try spacing("zh-Hant", readAt, "已讀 {time, time, short}")
        #expect(hant.map(\.subject) == ["time:before"])
        #expect(try spacing("zh-Hant", readAt, "{time, time, short} 已讀").isEmpty)
    }

    @Test func kanaAndIdeographicSpacesCountAndOtherLanguagesAreNotChecked() throws {
        #expect(try spacing("ja", renews, "{product}は{date, date, ::dMMM}\u{3000}に更新されます").count == 1)
        #expect(try spacing("ja", renews, "{product}は{date, date, ::dMMM} に更新されます").count == 1)
        #expect(try spacing("ko", renews, "{product} {date, date, ::dMMM} 갱신").isEmpty)
        #expect(try spacing("de", renews, "{product} verlängert sich am {date, date, ::dMMM}").isEmpty)
    }

    @Test func aDateInsideAPluralBranchIsChecked() throws {
        let source = #"{"k": "{n, plural, other {# renew {date, date, ::dMMM}}}"}"#
        #expect(try spacing("zh-Hans", source, "{n, plural, other {# 个将于 {date, date, ::dMMM} 续订}}").count == 1)
    }

    @Test func fullWidthPunctuationStandsForTheSourcesTrailingSpace() throws {
        let source = #"{"k": "I have an idea: "}"#
        #expect(try lintInline(["en": source, "ja": #"{"k": "アイデアがあります："}"#]).isEmpty)
        #expect(try lintInline(["en": source, "zh-Hans": #"{"k": "我有个建议："}"#]).isEmpty)
        // A half-width colon still needs the space.
        #expect(try lintInline(["en": source, "de": #"{"k": "Ich habe eine Idee:"}"#]).map(\.check) == [.whitespace])
    }
}
