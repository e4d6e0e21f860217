import Testing
@testable import LookResolver

/// `LocalizedText.text(preferring:)`: the documented order (each wanted tag ignoring case, then each one's language,
/// then English, then the first tag in sorted order), with the expected texts read off the inputs by hand.
@Suite("A team's text in the person's language", .timeLimit(.minutes(10)))
struct LocalizedTextTests {
    static let texts = LocalizedText.localized(LanguageTexts([
        "de": "Tarife", "pt-BR": "Planos", "PT-PT": "Planos (PT)", "en": "Plans", "zh-Hant": "方案",
    ]))

    @Test func aWantedTagMatchesIgnoringCaseInTheOrderWanted() {
        #expect(Self.texts.text(preferring: ["pt-br"]) == "Planos")
        #expect(Self.texts.text(preferring: ["pt-pt", "pt-BR"]) == "Planos (PT)")
        #expect(Self.texts.text(preferring: ["ZH-HANT"]) == "方案")
        #expect(Self.texts.text(preferring: ["fr", "DE"]) == "Tarife")
    }

    @Test func thenTheWantedTagsLanguageThenEnglishThenTheFirstSortedTag() {
        // de-AT has no text of its own: its language, de.
        #expect(Self.texts.text(preferring: ["de-AT"]) == "Tarife")
        // pt alone is not among the tags (pt-BR, PT-PT are): English.
        #expect(Self.texts.text(preferring: ["pt"]) == "Plans")
        #expect(Self.texts.text(preferring: ["fr-CA", "fr"]) == "Plans")
        // No English: the first tag in sorted order ("DE" sorts before "it").
        let noEnglish = LocalizedText.localized(LanguageTexts(["it": "Piani", "DE": "Tarife"]))
        #expect(noEnglish.text(preferring: ["ja"]) == "Tarife")
        #expect(LocalizedText.localized(LanguageTexts([:])).text(preferring: ["de"]) == "")
    }

    @Test func tagsDifferingOnlyInCaseTheFirstInSortedOrderWins() {
        // "DE" sorts before "de" (uppercase first in UTF-8): both match "de", and the first one wins.
        let both = LocalizedText.localized(LanguageTexts(["de": "klein", "DE": "GROSS"]))
        #expect(both.text(preferring: ["de"]) == "GROSS")
        #expect(both.text(preferring: ["De-CH"]) == "GROSS")
    }

    @Test func caseIsIgnoredAsLowercasedIgnoresItOutsideASCIITooButNotBeyondIt() {
        #expect(LanguageTexts.equalIgnoringCase("pt-BR", "PT-br"))
        #expect(!LanguageTexts.equalIgnoringCase("pt-BR", "pt-BS"))
        // '@' (0x40) and '`' (0x60) differ only in the bit that separates cases of letters: not letters, not equal.
        #expect(!LanguageTexts.equalIgnoringCase("@", "`"))
        #expect(!LanguageTexts.equalIgnoringCase("de", "de-"))
        // Outside ASCII, as lowercased() compares: É and é are one letter.
        #expect(LanguageTexts.equalIgnoringCase("x-É", "x-é"))
        #expect(!LanguageTexts.equalIgnoringCase("x-É", "x-e"))
    }
}
