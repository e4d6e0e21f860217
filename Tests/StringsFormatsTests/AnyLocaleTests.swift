import Foundation
import Strings
import StringsLint
import Testing
@testable import StringsFormats

/// Every locale a real project ships, in every format (patterns seen in public apps: Tests/StringsFormatsTests/Fixtures/realworld/SOURCES.md).
/// Expected plural categories are CLDR's (Belarusian one/few/many/other, Serbian one/few/other), directory names
/// Android's documented qualifiers.
@Suite(.timeLimit(.minutes(10))) struct AnyLocaleTests {
    /// Android's resource qualifier rules (developer.android.com, "App resources overview", locale qualifiers).
    @Test(arguments: [
        ("values-zh-rCN", "zh-CN", true), ("values-zh-rTW", "zh-TW", true), ("values-b+sr+Latn", "sr-Latn", true),
        ("values-nb-rNO", "nb-NO", true), ("values-pt", "pt", true), ("values-en-rGB", "en-GB", true),
        ("values-iw", "he", true), ("values-he", "he", false), ("values-in", "id", true), ("values-ji", "yi", true),
        ("values-b+es+419", "es-419", true), ("values-ace", "ace", true), ("values-ar-rLY", "ar-LY", true),
        ("values-b+ast", "ast", true), ("values", "en", true),
    ])
    func androidDirectoryNamesALocale(directory: String, tag: String, primary: Bool) throws {
        let found = try #require(AndroidQualifier.locale(ofDirectory: directory))
        #expect(found.locale.identifier == tag)
        #expect(found.isPrimary == primary)
    }

    @Test(arguments: ["values-night", "values-de-land", "values-v21", "values-sw600dp", "values-land", "values-en-rXA", "values-en",
                      "values-mcc310", "values-de-rbe"])
    func otherQualifiersAreNotTranslations(directory: String) {
        #expect(AndroidQualifier.locale(ofDirectory: directory) == nil)
    }

    @Test(arguments: [("zh-CN", "values-zh-rCN"), ("sr-Latn", "values-b+sr+Latn"), ("nb-NO", "values-nb-rNO"), ("pt", "values-pt"),
                      ("yi", "values-ji"), ("es-419", "values-b+es+419"), ("zh-Hant", "values-b+zh+Hant"), ("pt-BR", "values-pt-rBR")])
    func androidDirectoryOfALocale(tag: String, directory: String) throws {
        #expect(AndroidQualifier.directories(for: try #require(CatalogLocale(tag: tag))).first == directory)
    }

    @Test func androidTreeWithRealQualifiersIsLintedInEveryLocale() throws {
        let path = CatalogFixtures.fixture("realworld/locales-res").path
        let findings = Linter().lint(try #require(try FormatLintInput.detect(path: path)))
        let spots = Set(findings.map { "\($0.check.code) \($0.file.dropFirst(path.count + 1)) \($0.locale ?? "-") \($0.key ?? "-")" })
        #expect(spots == [
            "argument-mismatch values-zh-rCN/strings.xml zh-CN greeting",
            "missing-plural-category values-b+sr+Latn/strings.xml sr-Latn episodes",
            "missing-key values-en-rGB/strings.xml en-GB app_name",
            "missing-key values-en-rGB/strings.xml en-GB episodes",
            "unknown-locale values-ang/strings.xml ang -",
            "missing-key values-ang/strings.xml ang greeting",
            "missing-key values-ang/strings.xml ang episodes",
        ], "\(spots.sorted())")
    }

    @Test func androidImportKeepsEveryLocaleUnderItsTag() throws {
        let content = try AndroidResourcesFormat().read(FormatFiles.load(path: CatalogFixtures.fixture("realworld/locales-res").path))
        #expect(Set(content.locales.map(\.identifier)) == ["zh-CN", "sr-Latn", "nb-NO", "pt", "en-GB", "he", "ang"])
        #expect(content.translations[try #require(CatalogLocale(tag: "sr-Latn"))]?.first { $0.key == "greeting" }?.pattern == "Zdravo {arg1}!")
    }

    @Test func stringCatalogWithLocalesBeyondTheFiftyIsLinted() throws {
        let path = CatalogFixtures.fixture("realworld/Locales.xcstrings").path
        let findings = Linter().lint(try #require(try FormatLintInput.detect(path: path)))
        // Belarusian selects few (2–4, 22–24, …) and many (0, 5–20, …) for integers; the plural has one and other only.
        #expect(findings.map { "\($0.check.code) \($0.locale ?? "-") \($0.key ?? "-")" }.sorted() == [
            "missing-plural-category be %lld photos", "missing-plural-category be %lld photos",
        ])
    }

    @Test func configuredLocalesAreHonouredForAStringCatalog() throws {
        let path = CatalogFixtures.fixture("realworld/Locales.xcstrings").path
        let linter = Linter(configuration: LintConfiguration(locales: ["be", "eu"]))
        let findings = linter.lint(try #require(try FormatLintInput.detect(path: path)))
        #expect(findings.map { "\($0.check.code) \($0.locale ?? "-")" }.sorted() == [
            "file-name en-GB", "file-name nl-BE", "missing-plural-category be", "missing-plural-category be",
        ])
    }

    @Test func stringCatalogRoundTripKeepsEveryLocale() throws {
        let bytes = try [UInt8](Data(contentsOf: CatalogFixtures.fixture("realworld/Locales.xcstrings")))
        let content = try StringCatalogFormat().read(FormatFiles(["": bytes]))
        #expect(Set(content.locales.map(\.identifier)) == ["be", "en-GB", "eu", "nl-BE"])
        let again = try StringCatalogFormat().read(StringCatalogFormat().write(content))
        #expect(again == content)
    }
}
