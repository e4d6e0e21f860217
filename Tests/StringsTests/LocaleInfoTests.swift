import Strings
import Testing

@Suite(.timeLimit(.minutes(10))) struct LocaleInfoTests {
    @Test func directionOfAllFifty() {
        let rightToLeft: Set<String> = ["ar", "he", "fa", "ur"]
        #expect(LocaleInfo.all.count == 50)
        for locale in LocaleTag.all {
            let expected: TextDirection = rightToLeft.contains(locale.identifier) ? .rightToLeft : .leftToRight
            #expect(Localizer.direction(of: locale) == expected, "\(locale)")
        }
    }

    @Test func nativeNames() {
        #expect(Localizer.nativeName(of: tag("de")) == "Deutsch")
        #expect(Localizer.nativeName(of: tag("ja")) == "日本語")
        #expect(Localizer.nativeName(of: tag("ar")) == "العربية")
        #expect(Localizer.nativeName(of: tag("ru")) == "русский")
        #expect(Localizer.nativeName(of: tag("pt-BR")) == "português (Brasil)")
        #expect(Localizer.nativeName(of: tag("zh-Hant")) == "中文（繁體）")
        #expect(Set(LocaleTag.all.map(Localizer.nativeName(of:))).count == 50)
    }

    @Test func pluralCategoriesOfTheFifty() {
        #expect(Localizer.pluralCategories(of: tag("ar")) == [.zero, .one, .two, .few, .many, .other])
        #expect(Localizer.pluralCategories(of: tag("ja")) == [.other])
        for locale in LocaleTag.all {
            #expect(Localizer.pluralCategories(of: locale).last == .other, "\(locale)")
        }
    }

    @Test func languageTagFacts() {
        #expect(LanguageTag.isWellFormed("zh-Hant-MO"))
        #expect(!LanguageTag.isWellFormed("garbage;;q=x"))
        #expect(!LanguageTag.isWellFormed(""))
        #expect(LanguageTag.canonicalize("iw") == "he")
        #expect(LanguageTag.canonicalize("EN-us") == "en-US")
        #expect(LanguageTag.maximize("zh-MO") == "zh-Hant-MO")
        #expect(LanguageTag.explicitParent("es-MX") == "es-419")
        #expect(LanguageTag.explicitParent("zh-Hant") == "root")
        #expect(LanguageTag.explicitParent("de") == nil)
    }
}
