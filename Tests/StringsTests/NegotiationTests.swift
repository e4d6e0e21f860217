import Strings
import Testing

@Suite(.timeLimit(.minutes(10))) struct NegotiationTests {
    let negotiator = LocaleNegotiator(memoSize: 64)

    /// The issue's table (docs/design.md#locale-negotiation-and-cldr-parent-locales): legacy and odd input always yields one of the 50.
    @Test(arguments: [
        ("iw", "he"), ("in", "id"), ("no", "nb"), ("nn", "nb"), ("zh-TW", "zh-Hant"), ("zh-MO", "zh-HK"),
        ("zh-SG", "zh-Hans"), ("es-MX", "es-419"), ("es-US", "es-419"), ("pt", "pt-BR"), ("pt-AO", "pt-PT"),
        ("fr-BE", "fr"), ("en-GB", "en"), ("sr-Latn", "en"), ("und", "en"), ("", "en"),
        ("garbage;;q=x", "en"), ("zh", "zh-Hans"), ("zh-HK", "zh-HK"), ("zh-Hant-MO", "zh-HK"),
        ("en_US", "en"), ("pt_BR", "pt-BR"), ("  de-AT  ", "de"), ("ZH-hant-tw", "zh-Hant"),
    ])
    func issueTable(input: String, expected: String) {
        #expect(negotiator.negotiate(tag: input).identifier == expected)
    }

    @Test func junkNeverFailsAndGivesEnglish() {
        let junk = String(repeating: "x;q=;,,-_*ÿ\u{0}", count: 1_000)
        #expect(junk.count >= 10_000)
        #expect(negotiator.negotiate(tag: junk) == .english)
        #expect(negotiator.negotiate(acceptLanguage: junk) == .english)
        #expect(negotiator.negotiate(tags: [junk, "", "@@"]) == .english)
        #expect(negotiator.negotiate(acceptLanguage: String(repeating: "a", count: 10_000)) == .english)
        #expect(negotiator.negotiate(acceptLanguage: "") == .english)
        #expect(negotiator.negotiate(acceptLanguage: "garbage;;q=x") == .english)
        #expect(negotiator.negotiate(tags: []) == .english)
    }

    @Test func acceptLanguageIsReadByQuality() {
        #expect(AcceptLanguage.parse("da, en-GB;q=0.8, en;q=0.7") == ["da", "en-GB", "en"])
        #expect(AcceptLanguage.parse("en;q=0.5, ru;q=0.9 ,de") == ["de", "ru", "en"])
        #expect(AcceptLanguage.parse("fr;q=0, *;q=0.5, es;q=abc, it;q=2, pt ;Q=0.3") == ["pt"])
        #expect(AcceptLanguage.parse("garbage;;q=x") == [])
        #expect(AcceptLanguage.parse(",,,;;;") == [])
        #expect(negotiator.negotiate(acceptLanguage: "xx-YY, ru-RU;q=0.9, en;q=0.8") == tag("ru"))
        #expect(negotiator.negotiate(acceptLanguage: "en;q=0.1, pt-AO;q=0.9") == tag("pt-PT"))
        #expect(negotiator.negotiate(acceptLanguage: "zh-MO,zh;q=0.8") == tag("zh-HK"))
        #expect(negotiator.negotiate(acceptLanguage: "sr-Latn, hr;q=0.5") == tag("hr"))
    }

    @Test func aListPrefersEarlierTags() {
        #expect(negotiator.negotiate(tags: ["de-CH", "fr"]) == tag("de"))
        #expect(negotiator.negotiate(tags: ["lv", "ru"]) == tag("ru"))
        #expect(negotiator.negotiate(tags: ["tlh", "es-AR", "en"]) == tag("es-419"))
    }

    @Test func explicitLanguageBeatsAcceptLanguage() {
        #expect(negotiator.negotiate(language: "ja", acceptLanguage: "de-DE,de;q=0.9") == tag("ja"))
        #expect(negotiator.negotiate(language: "en-GB", acceptLanguage: "de") == .english)
        // An explicit language that matches nothing, or junk, leaves the decision to the header.
        #expect(negotiator.negotiate(language: "sr", acceptLanguage: "hr") == tag("hr"))
        #expect(negotiator.negotiate(language: ";;", acceptLanguage: "fr-CA") == tag("fr-CA"))
        #expect(negotiator.negotiate(language: "", acceptLanguage: "he") == tag("he"))
        #expect(negotiator.negotiate(language: nil, acceptLanguage: nil) == .english)
        #expect(negotiator.negotiate(language: "sr", acceptLanguage: nil) == .english)
    }

    @Test func localeTagOnlyHoldsTheFifty() {
        #expect(LocaleTag.all.count == 50)
        #expect(Set(LocaleTag.all.map(\.identifier)).count == 50)
        #expect(LocaleTag("pt-br")?.identifier == "pt-BR")
        #expect(LocaleTag("zh_hk")?.identifier == "zh-HK")
        #expect(LocaleTag("pt") == nil)
        #expect(LocaleTag("en-GB") == nil)
        for locale in LocaleTag.all {
            #expect(negotiator.negotiate(tag: locale.identifier) == locale, "\(locale) negotiates to itself")
        }
    }
}

@Suite(.timeLimit(.minutes(10))) struct NegotiationMemoTests {
    /// Lists whose tags joined by commas would look alike must not share a memo entry.
    @Test func listsNeverCollide() {
        let negotiator = LocaleNegotiator(memoSize: 8)
        #expect(negotiator.negotiate(tags: ["ja,de", "ko"]) == tag("ko"))
        #expect(negotiator.negotiate(tags: ["ja", "de,ko"]) == tag("ja"))
    }

    /// A tiny memo keeps answering correctly while it turns over many times.
    @Test func boundedMemoStaysCorrect() {
        let negotiator = LocaleNegotiator(memoSize: 2)
        for _ in 0..<3 {
            for row in verifiedNegotiationTable {
                #expect(negotiator.negotiate(tag: row.tag).identifier == row.expected, "\(row.tag)")
            }
        }
    }
}
