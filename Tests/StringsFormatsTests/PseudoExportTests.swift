import Foundation
import Strings
import Testing
@testable import StringsFormats

/// `lookd export --pseudo`: en-XA and ar-XB, generated from English, in every format; never read back as catalogs.
@Suite(.timeLimit(.minutes(10))) struct PseudoExportTests {
    @Test func addingPseudoLocalesGeneratesEveryKeyFromEnglish() throws {
        let shipped = try CatalogFixtures.shipped()
        let content = shipped.addingPseudoLocales()
        #expect(content.locales.suffix(2) == LocaleTag.pseudoLocales.map(CatalogLocale.init))
        for locale in LocaleTag.pseudoLocales.map(CatalogLocale.init) {
            let entries = try #require(content.translations[locale])
            #expect(entries.map(\.key) == shipped.source.map(\.key))
            for (entry, english) in zip(entries, shipped.source) where english.key != "header.status" {
                #expect(entry.pattern == PseudoLocalization.pattern(english.message, for: locale.known!), "\(locale): \(english.key)")
            }
            // The one whole select keeps its shape; each case is pseudo-localized on its own.
            let status = try #require(entries.first { $0.key == "header.status" }?.pattern)
            #expect(status.hasPrefix("{status, select, online {") && status.contains(PseudoLocalization.pattern("Online", for: locale.known!)), "\(status)")
        }
        #expect(content.translations.filter { !$0.key.isPseudo } == shipped.translations)
    }

    @Test(.enabled(if: AndroidCompileTests.aapt2 != nil, "aapt2 is not installed (Debian package 'aapt'; make test installs it)"))
    func androidPseudoLocalesCompileAndAreNotReadBack() throws {
        let shipped = try CatalogFixtures.shipped()
        let files = try AndroidResourcesFormat().write(shipped.addingPseudoLocales())
        #expect(files.files.count == 54)
        let accented = String(decoding: try #require(files.files["values-en-rXA/strings.xml"]), as: UTF8.self)
        #expect(accented.contains(">["), "en-XA strings are bracketed")
        #expect(files.files["values-ar-rXB/strings.xml"].map { String(decoding: $0, as: UTF8.self).unicodeScalars.contains("\u{202E}") } == true)
        let result = try AndroidCompileTests.compile(files)
        #expect(result.status == 0, "\(result.output)")
        let back = try AndroidResourcesFormat().read(files)
        #expect(back == (try AndroidResourcesFormat().read(AndroidResourcesFormat().write(shipped))))
        #expect(back.locales.allSatisfy { !$0.isPseudo })
    }

    @Test func stringCatalogCarriesThemAndImportSkipsThem() throws {
        let shipped = try CatalogFixtures.shipped()
        let format = StringCatalogFormat()
        let files = try format.write(shipped.addingPseudoLocales())
        let text = String(decoding: try #require(files.single), as: UTF8.self)
        #expect(text.contains("\"en-XA\"") && text.contains("\"ar-XB\""))
        #expect(try format.read(files) == format.read(format.write(shipped)))
    }

    @Test func xliffForAPseudoLocaleOnlyWithThemAndNeverImported() throws {
        let shipped = try CatalogFixtures.shipped()
        #expect(throws: ConversionError.self) { try XLIFFFormat(locale: "en-XA").write(shipped) }
        let files = try XLIFFFormat(locale: "en-XA").write(shipped.addingPseudoLocales())
        let text = String(decoding: try #require(files.single), as: UTF8.self)
        #expect(text.contains("target-language=\"en-XA\"") && text.contains("<target state=\"translated\">["))
        #expect(throws: ConversionError.self) { try XLIFFFormat(locale: nil).read(files) }
    }
}
