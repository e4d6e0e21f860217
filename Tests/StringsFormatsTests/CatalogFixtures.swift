import Foundation
import Strings
@testable import StringsFormats

/// Paths of the repository's catalogs and this suite's fixtures.
enum CatalogFixtures {
    /// `Resources/Localizations` of the package.
    static let catalogDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/Localizations")

    static func fixture(_ name: String) -> URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(name)
    }

    static func shipped() throws -> CatalogContent { try CatalogContent.load(directory: catalogDirectory) }

    /// The bytes of every shipped catalog file, by file name.
    static func shippedFiles() throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: catalogDirectory.path) where name.hasSuffix(".json") {
            files[name] = [UInt8](try Data(contentsOf: catalogDirectory.appendingPathComponent(name)))
        }
        return files
    }
}
