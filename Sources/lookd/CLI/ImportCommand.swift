import LookdServer
import Foundation
import Strings
import StringsFormats
import StringsLint

/// `lookd import --format xcstrings|android|xliff PATH [--catalogs DIR] [--lint-format text|json|github|sarif]`
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "read a String Catalog, Android resources or a vendor's XLIFF into the catalogs"
    static let usage = """
        lookd import --format xcstrings|android|xliff PATH [--catalogs DIR] [--lint-format text|json|github|sarif]
        xcstrings, android  rewrite en.json and every TAG.json from the file / res/ directory
        xliff               merge the delivered translations into TAG.json (the XLIFF's target-language); its
                            sources must match en.json
        The result is linted first: with errors nothing is written, the findings are printed, exit 1.
        """

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["format", "catalogs", "lint-format", "locale"])
        let format = try FormatArgument.format(arguments)
        let lintFormatName = arguments.value("lint-format") ?? "text"
        guard let lintFormat = LintFormat(rawValue: lintFormatName) else {
            throw UsageError("--lint-format must be text, json, github or sarif (got '\(lintFormatName)')")
        }
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError("give one PATH to import")
        }
        let input: FormatFiles
        do {
            input = try FormatFiles.load(path: path)
        } catch {
            throw UsageError("\(path): \(error.localizedDescription)")
        }
        let directory = try CatalogLocator.directory(arguments)
        let result: CatalogContent
        let written: [String]
        do {
            let imported = try format.read(input)
            if format.importsSource {
                result = imported
                written = imported.files.map(\.name)
            } else {
                let existing = try CatalogContent.load(directory: directory)
                result = try existing.merging(translationsOf: imported)
                written = imported.locales.map { $0.identifier + ".json" }
            }
        } catch let error as ConversionError {
            Console.error("lookd import: \(path) cannot be imported; nothing was written:\n" + error.problems.map { "  " + $0.description }.joined(separator: "\n"))
            return 1
        } catch {
            throw UsageError("\(error)")
        }

        let files = result.files
        let inputs = files.map { CatalogInput(name: directory.appendingPathComponent($0.name).path, bytes: $0.bytes) }
        var configuration = LintConfiguration()
        let configPath = directory.appendingPathComponent(LintConfiguration.fileName).path
        if let data = FileManager.default.contents(atPath: configPath) {
            do { configuration = try LintConfiguration.parse(data) } catch { throw UsageError("\(configPath): \(error.description)") }
        }
        let findings: [LintFinding]
        do {
            findings = try Linter(configuration: configuration).lint(inputs).filter { written.contains($0.fileName) }
        } catch {
            throw UsageError(error.description)
        }
        let report = LintReport(findings: findings, fileCount: written.count, suppressedCount: 0, toolVersion: lookdVersion)
        if report.fails(strict: false) {
            Console.write(Data(lintFormat.reporter.render(report).utf8))
            Console.error("lookd import: the result does not lint clean; nothing was written")
            return 1
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for file in files where written.contains(file.name) {
                try Data(file.bytes).write(to: directory.appendingPathComponent(file.name), options: .atomic)
            }
        } catch {
            throw UsageError("\(directory.path): \(error.localizedDescription)")
        }
        Console.error("lookd import: wrote \(written.joined(separator: ", ")) in \(directory.path)")
        return 0
    }
}
