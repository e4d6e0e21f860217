import Foundation
import Testing
@testable import Strings

@Suite(.timeLimit(.minutes(10))) struct PseudoLocaleTests {
    let accented = LocaleTag.pseudoAccented
    let bidi = LocaleTag.pseudoBidi

    @Test func accentedTextIsBracketedLongerAndReadable() {
        #expect(PseudoLocalization.pattern("Send", for: accented) == "[Šéñð one]")
        #expect(PseudoLocalization.pattern("Hello {name}", for: accented) == "[Ĥéļļö {name} one]")
        #expect(PseudoLocalization.pattern("It''s '{'literal'}'", for: accented) == "[Îţ''š '{'ļîţéŕåļ'}' one two]")
        #expect(PseudoLocalization.pattern("{count, plural, one {# file} other {# files}}", for: accented)
            == "[{count, plural, one {# ƒîļé} other {# ƒîļéš}} one]")
        #expect(PseudoLocalization.pattern("Send", for: .english) == "Send")
        #expect(PseudoLocalization.pattern("", for: accented) == "")
    }

    @Test func bidiTextIsMirroredWordByWord() {
        let rlo = "\u{200F}\u{202E}", pdf = "\u{202C}\u{200F}"
        #expect(PseudoLocalization.pattern("Send it", for: bidi) == "\(rlo)Send\(pdf) \(rlo)it\(pdf)")
        #expect(PseudoLocalization.pattern("{name} left", for: bidi) == "{name} \(rlo)left\(pdf)")
    }

    /// Every English message keeps its arguments, types and keys in both pseudo-locales, and parses.
    @Test(arguments: [LocaleTag.pseudoAccented, LocaleTag.pseudoBidi])
    func everyMessageKeepsItsStructure(_ locale: LocaleTag) throws {
        let catalogs = realLocalizer.catalogs
        #expect(catalogs.pseudoPatterns[locale]?.count == catalogs.source.count)
        for (key, source) in catalogs.source {
            let pseudo = try #require(catalogs.pattern(key: key, locale: locale))
            let english = try MessageStructure(pattern: source.message)
            let generated = try MessageStructure(pattern: pseudo)
            #expect(generated.arguments.map { [$0.name, "\($0.type)", $0.style ?? ""] }
                == english.arguments.map { [$0.name, "\($0.type)", $0.style ?? ""] }, "\(key): \(pseudo)")
            #expect(generated.selectors.map(\.key) == english.selectors.map(\.key), "\(key): \(pseudo)")
        }
    }

    @Test func formatsThroughTheLocalizerWithEnglishRules() throws {
        let one = try realLocalizer.format(key: "thread.unread", locale: accented, arguments: ["count": 1])
        #expect(one.text == "[1 ûñŕéåð ɱéššåĝé one two]")
        #expect(one.servedBy == accented && one.locale == accented)
        let many = try realLocalizer.format(key: "thread.unread", locale: accented, arguments: ["count": 1234])
        #expect(many.text == "[1,234 ûñŕéåð ɱéššåĝéš one two]")
        let mirrored = try realLocalizer.format(key: "thread.unread", locale: bidi, arguments: ["count": 2])
        #expect(mirrored.text.contains("\u{202E}messages\u{202C}") && mirrored.text.hasPrefix("2 "), "\(mirrored.text)")
        #expect(Localizer.direction(of: bidi) == .rightToLeft && Localizer.direction(of: accented) == .leftToRight)
        #expect(Localizer.pluralCategories(of: accented) == Localizer.pluralCategories(of: .english))
        #expect(Localizer.pluralCategories(of: bidi) == Localizer.pluralCategories(of: .english))
        #expect(realLocalizer.fallbackChain(for: accented) == [accented, .english])
    }

    /// About 40 % longer: every message without arguments renders at least 30 % longer than English.
    @Test func accentedMessagesAreLonger() throws {
        for (key, source) in realLocalizer.catalogs.source where try MessageStructure(pattern: source.message).arguments.isEmpty {
            let english = try realLocalizer.format(key: key, locale: .english).text
            let pseudo = try realLocalizer.format(key: key, locale: accented).text
            #expect(Double(pseudo.count) >= Double(english.count) * 1.3, "\(key): \(pseudo)")
            #expect(pseudo.hasPrefix("[") && pseudo.hasSuffix("]"))
        }
    }

    @Test func onlyAnExplicitRequestSelectsThem() {
        let negotiator = LocaleNegotiator(memoSize: 0)
        #expect(negotiator.negotiate(tag: "en-XA") == accented)
        #expect(negotiator.negotiate(tag: "en_xa") == accented)
        #expect(negotiator.negotiate(tag: "ar-XB") == bidi)
        #expect(negotiator.negotiate(language: "en-XA", acceptLanguage: "de") == accented)
        #expect(negotiator.negotiate(acceptLanguage: "en-XA, de;q=0.5") == accented)
        #expect(negotiator.negotiate(tags: ["ar-XB", "de"]) == bidi)
        // Never reached from real tags, and skipped unless first.
        for header in ["en-US", "en", "ar", "ar-SA, en", "en-XA-u-nu-latn", "en-XB", "ar-XA", "de, en-XA", "en-GB;q=0.9, en-XA;q=0.1"] {
            #expect(!negotiator.negotiate(acceptLanguage: header).isPseudo, "\(header)")
        }
        #expect(negotiator.negotiate(acceptLanguage: "de, en-XA") == tag("de"))
        #expect(negotiator.negotiate(tags: ["xx", "en-XA"]) == .english)
        #expect(!LocaleTag.all.contains(accented) && !LocaleTag.all.contains(bidi))
        #expect(LocaleTag("en-XA") == nil)
        #expect(LocaleTag(includingPseudo: "EN-xa") == accented)
        #expect(negotiator.matches(tag: "ar-XB"))
    }

    @Test func listedAndFlaggedButNeverCatalogs() throws {
        let infos = LocaleInfo.allIncludingPseudo
        #expect(infos.count == 52 && LocaleInfo.all.count == 50)
        #expect(infos.filter(\.isPseudo).map(\.locale) == [accented, bidi])
        #expect(LocaleInfo.of(bidi).direction == .rightToLeft)
        #expect(!realLocalizer.catalogs.locales.contains { $0.isPseudo })
        #expect(!realLocalizer.catalogs.patterns.keys.contains { $0.isPseudo })
        let encoded = try JSONEncoder().encode([accented, bidi])
        #expect(try JSONDecoder().decode([LocaleTag].self, from: encoded) == [accented, bidi])
    }
}
