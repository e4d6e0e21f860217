import Foundation
import Strings
import Testing
@testable import StringsFormats

@Suite(.timeLimit(.minutes(10))) struct RoundTripTests {
    @Test func catalogFilesAreWrittenBackByteForByte() throws {
        let content = try CatalogFixtures.shipped()
        let files = try CatalogFixtures.shippedFiles()
        #expect(content.locales.count == 49)
        for (name, bytes) in content.files {
            #expect(files[name] == bytes, "\(name) differs when written back")
        }
    }

    @Test func everyCatalogMessagePrintsBackUnchangedWithICUsArguments() throws {
        let content = try CatalogFixtures.shipped()
        let patterns = content.source.map(\.message) + content.translations.values.flatMap { $0.map(\.pattern) }
        for pattern in patterns {
            let message = try ICUMessage(parsing: pattern)
            #expect(message.pattern == pattern)
            #expect(Set(message.argumentNamesForTest) == Set(try MessageStructure(pattern: pattern).argumentNames), "\(pattern)")
        }
    }

    @Test(arguments: ["xcstrings", "android"])
    func exportThenImportGivesBackEveryCatalogFile(format name: String) throws {
        let format = try #require(CatalogFormats.named(name))
        let exported = try format.write(try CatalogFixtures.shipped())
        let imported = try format.read(exported)
        let original = try CatalogFixtures.shippedFiles()
        let files = imported.files
        #expect(files.count == 50)
        for (file, bytes) in files {
            #expect(original[file] == bytes, "\(file) differs after \(name) export and import")
        }
    }

    @Test func xliffExportThenImportGivesBackEachLocaleFile() throws {
        let content = try CatalogFixtures.shipped()
        let original = try CatalogFixtures.shippedFiles()
        for locale in LocaleTag.all.map(CatalogLocale.init) where locale != .english {
            let format = XLIFFFormat(locale: locale.identifier)
            let imported = try format.read(try format.write(content))
            #expect(imported.locales == [locale])
            #expect(imported.localeFile(locale) == original[locale.identifier + ".json"], "\(locale)")
            #expect(imported.sourceFile == original["en.json"])
            let merged = try content.merging(translationsOf: imported)
            #expect(merged == content)
        }
    }
}

extension ICUMessage {
    var argumentNamesForTest: [String] {
        nodes.flatMap { node -> [String] in
            switch node {
            case .text, .pound: []
            case .argument(let name, _, _): [name]
            case .choice(let choice): [choice.name] + choice.cases.flatMap(\.message.argumentNamesForTest)
            }
        }
    }
}
