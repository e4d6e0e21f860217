import Foundation
@testable import StringsLint
import Strings

/// Tests/Fixtures/lint/<name>, found from this file's path.
func lintFixture(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/lint/\(name)")
}

/// The package's real catalogs (Resources/Localizations), found from this file's path.
let catalogDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Resources/Localizations")

/// Every `*.json` of a folder but lookd-lint.json, read the way `lookd lint` reads them (names are file names).
func catalogInputs(_ folder: URL) throws -> [CatalogInput] {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    return names.filter { $0.hasSuffix(".json") && $0 != LintConfiguration.fileName }.map { name in
        if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) {
            return CatalogInput(name: name, bytes: [UInt8](data))
        }
        return CatalogInput(name: name, unreadable: "not readable")
    }
}

func configuration(in folder: URL) throws -> LintConfiguration {
    let url = folder.appendingPathComponent(LintConfiguration.fileName)
    guard let data = FileManager.default.contents(atPath: url.path) else { return LintConfiguration() }
    return try LintConfiguration.parse(data)
}

/// Findings for inline catalogs: `en` is the source.
func lintInline(_ catalogs: [String: String], configuration: LintConfiguration = LintConfiguration()) throws -> [LintFinding] {
    try Linter(configuration: configuration).lint(catalogs.sorted { $0.key < $1.key }.map {
        CatalogInput(name: "\($0.key).json", bytes: Array($0.value.utf8))
    })
}

/// The findings of one check for the one-key translation `{"k": "<translation>"}` against the source `en`.
func findings(of check: LintCheck, _ locale: String, source: String, translation: String) throws -> [LintFinding] {
    try lintInline(["en": source, locale: #"{"k": "\#(translation)"}"#]).filter { $0.check == check }
}

/// A compact, comparable view of a finding.
struct Spot: Hashable, CustomStringConvertible {
    let code: String
    let severity: LintSeverity
    let file: String
    let line: Int
    let column: Int

    init(_ code: String, _ severity: LintSeverity, _ file: String, _ line: Int, _ column: Int) {
        self.code = code
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
    }

    init(_ finding: LintFinding) {
        self.init(finding.check.code, finding.severity, finding.file, finding.position.line, finding.position.column)
    }

    var description: String { "\(file):\(line):\(column) \(severity.rawValue)[\(code)]" }
}
