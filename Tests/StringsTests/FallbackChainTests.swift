import Strings
import Testing

@Suite(.timeLimit(.minutes(10))) struct FallbackChainTests {
    func ids(_ chain: [LocaleTag]) -> [String] { chain.map(\.identifier) }

    @Test func cldrParentsNotTruncation() {
        #expect(FallbackChain.cldrAncestors(of: "es-MX") == ["es-MX", "es-419", "es"])
        #expect(FallbackChain.cldrAncestors(of: "zh-Hant-MO") == ["zh-Hant-MO", "zh-Hant-HK", "zh-Hant"])
        #expect(FallbackChain.cldrAncestors(of: "zh-MO") == ["zh-Hant-MO", "zh-Hant-HK", "zh-Hant"])
        #expect(FallbackChain.cldrAncestors(of: "zh-TW") == ["zh-Hant-TW", "zh-Hant"])
        #expect(FallbackChain.cldrAncestors(of: "zh-SG") == ["zh-SG", "zh"])
        #expect(FallbackChain.cldrAncestors(of: "pt-AO") == ["pt-AO", "pt-PT", "pt"])
        #expect(FallbackChain.cldrAncestors(of: "en-GB") == ["en-GB", "en-001", "en"])
        #expect(FallbackChain.cldrAncestors(of: "sr-Latn") == ["sr-Latn"])
        #expect(FallbackChain.cldrAncestors(of: "zh-Hans-HK") == ["zh-Hans-HK", "zh-Hans", "zh"])
        #expect(FallbackChain.cldrAncestors(of: "garbage;;q=x") == [])
    }

    @Test func chainsForTags() {
        #expect(ids(FallbackChain.chain(forTag: "es-MX")) == ["es-419", "es", "en"])
        #expect(ids(FallbackChain.chain(forTag: "zh-Hant-MO")) == ["zh-HK", "zh-Hant", "en"])
        #expect(ids(FallbackChain.chain(forTag: "zh-MO")) == ["zh-HK", "zh-Hant", "en"])
        #expect(ids(FallbackChain.chain(forTag: "pt-AO")) == ["pt-PT", "pt-BR", "en"])
        #expect(ids(FallbackChain.chain(forTag: "en-GB")) == ["en"])
        #expect(ids(FallbackChain.chain(forTag: "nn")) == ["nb", "en"])
        #expect(ids(FallbackChain.chain(forTag: "fr-BE")) == ["fr", "en"])
        #expect(ids(FallbackChain.chain(forTag: "zh-Hans-HK")) == ["zh-Hans", "en"])
        #expect(ids(FallbackChain.chain(forTag: "zh-Hans-MO")) == ["zh-Hans", "en"])
        #expect(ids(FallbackChain.chain(forTag: "")) == ["en"])
        #expect(ids(FallbackChain.chain(forTag: String(repeating: "?", count: 10_000))) == ["en"])
    }

    @Test func chainsOfTheFifty() {
        #expect(ids(FallbackChain.chain(for: tag("es-419"))) == ["es-419", "es", "en"])
        #expect(ids(FallbackChain.chain(for: tag("zh-HK"))) == ["zh-HK", "zh-Hant", "en"])
        #expect(ids(FallbackChain.chain(for: tag("zh-Hant"))) == ["zh-Hant", "en"])
        #expect(ids(FallbackChain.chain(for: tag("zh-Hans"))) == ["zh-Hans", "en"])
        #expect(ids(FallbackChain.chain(for: tag("pt-PT"))) == ["pt-PT", "pt-BR", "en"])
        #expect(ids(FallbackChain.chain(for: tag("pt-BR"))) == ["pt-BR", "en"])
        #expect(ids(FallbackChain.chain(for: tag("fr-CA"))) == ["fr-CA", "fr", "en"])
        #expect(ids(FallbackChain.chain(for: .english)) == ["en"])
        for locale in LocaleTag.all {
            let chain = FallbackChain.chain(for: locale)
            #expect(chain.first == locale)
            #expect(chain.last == .english)
            #expect(Set(chain).count == chain.count)
        }
    }

    @Test func traditionalChineseNeverFallsBackToSimplified() {
        for identifier in ["zh-Hant", "zh-HK", "zh-TW", "zh-MO", "zh-Hant-MO", "yue", "zh-Hant-CN"] {
            let chain = ids(FallbackChain.chain(forTag: identifier))
            #expect(!chain.contains("zh-Hans"), "\(identifier): \(chain)")
        }
        for identifier in ["zh", "zh-CN", "zh-SG", "zh-Hans-HK", "zh-Hans-MO", "zh-Hans-TW"] {
            let chain = ids(FallbackChain.chain(forTag: identifier))
            #expect(!chain.contains("zh-Hant") && !chain.contains("zh-HK"), "\(identifier): \(chain)")
        }
    }

    /// A key missing from a locale's catalog is served by the next catalog in its chain.
    @Test func missingKeysComeFromTheChain() throws {
        let source: [String: SourceMessage] = [
            "a": SourceMessage(message: "A in English"),
            "b": SourceMessage(message: "{n, plural, one {# thing} other {# things}}"),
            "c": SourceMessage(message: "C in English"),
        ]
        let catalogs = CatalogSet(
            directory: catalogDirectory, source: source,
            patterns: [tag("es"): ["a": "A en español", "b": "{n, plural, one {# cosa} other {# cosas}}"],
                       tag("es-419"): ["a": "A latinoamericana"]])
        let localizer = Localizer(catalogs: catalogs)
        let a = try localizer.format(key: "a", locale: tag("es-419"))
        #expect(a.text == "A latinoamericana" && a.servedBy == tag("es-419"))
        let b = try localizer.format(key: "b", locale: tag("es-419"), arguments: ["n": 2])
        #expect(b.text == "2 cosas" && b.servedBy == tag("es"))
        let c = try localizer.format(key: "c", locale: tag("es-419"))
        #expect(c.text == "C in English" && c.servedBy == .english)
        let merged = localizer.catalogs(for: tag("es-419"))
        #expect(merged.entries["a"]?.servedBy == tag("es-419"))
        #expect(merged.entries["b"]?.servedBy == tag("es"))
        #expect(merged.fallbackKeys == ["b", "c"])
        #expect(throws: FormatError.unknownKey(key: "zzz")) { try localizer.format(key: "zzz", locale: .english) }
    }

    /// A translation ICU cannot parse is skipped for the next catalog in the chain.
    @Test func brokenTranslationFallsThrough() throws {
        let catalogs = CatalogSet(directory: catalogDirectory,
                                  source: ["k": SourceMessage(message: "{n, plural, one {# file} other {# files}}")],
                                  patterns: [tag("de"): ["k": "{n, plural, one {# Datei} other {# Dateien}"]])
        let result = try Localizer(catalogs: catalogs).format(key: "k", locale: tag("de"), arguments: ["n": 3])
        #expect(result.text == "3 files" && result.servedBy == .english)
    }
}
