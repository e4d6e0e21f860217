import Foundation
import Strings
import Testing
@testable import StringsFormats

@Suite struct RoundTripTests {
    @Test func catalogFilesAreWrittenBackByteForByte() throws {
        let content = try CatalogFixtures.shipped()
        let files = try CatalogFixtures.shippedFiles()
        #expect(content.locales.count == 49)
        for (name, bytes) in content.files {
            #expect(files[name] == bytes, "\(name) differs when written back")
        }
    }

    @Test func everyCatalogMessagePrintsBackUnchanged() throws {
        let content = try CatalogFixtures.shipped()
        let patterns = content.source.map(\.message) + content.translations.values.flatMap { $0.map(\.pattern) }
        for pattern in patterns {
            let message = try ICUMessage(parsing: pattern)
            #expect(message.pattern == pattern)
            #expect(Set(message.argumentNamesForTest) == Set(try MessageStructure(pattern: pattern).argumentNames), "\(pattern)")
        }
    }

    @Test(arguments: ["xcstrings"])
    func exportThenImportGivesTheSameCatalogs(format name: String) throws {
        let format = try #require(CatalogFormats.named(name))
        let content = try CatalogFixtures.shipped()
        let exported = try format.write(content)
        let imported = try format.read(exported)
        let original = try CatalogFixtures.shippedFiles()
        let files = imported.files
        #expect(files.count == 50)
        for (name, bytes) in files {
            #expect(original[name] == bytes, "\(name) differs after \(name) export and import")
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
