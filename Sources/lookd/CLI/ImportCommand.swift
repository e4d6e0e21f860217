import LookdServer
import Foundation
import Strings
import StringsFormats
import StringsLint

/// `lookd import --format xcstrings|android|xliff PATH [--catalogs DIR] [--lint-format text|json|github|sarif] [--keep-unreadable]`
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "read a String Catalog, Android resources or a vendor's XLIFF into the catalogs"
    static let usage = """
        lookd import --format xcstrings|android|xliff PATH [--catalogs DIR] [--lint-format text|json|github|sarif]
                     [--keep-unreadable]
        xcstrings, android  rewrite en.json and every TAG.json from the file / res/ directory
        xliff               merge the delivered translations into TAG.json (the XLIFF's target-language); its
                            sources must match en.json
        A file that cannot be read (not well-formed, not UTF-8, nested deeper than 100 elements): a message, exit 2.
        The result is linted first: with errors nothing is written, the report is printed (--lint-format) with a
        summary by check on standard error, exit 1. Missing translations are imported as missing (reported, not refused).
        xcstrings, android  keep the file(s) read in CATALOGS/imported/FORMAT: export lays the catalogs onto them,
                            so what lookd's catalogs cannot hold (states, comments, arrays, ...) comes back unchanged;
                            a localization that is wrong (a malformed specifier) refuses the import, unless
                            --keep-unreadable: then it is left out of the catalogs and kept as it is too
        """

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["format", "catalogs", "lint-format", "locale", "keep-unreadable"])
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
        // A full import may create the catalog folder; a one-locale delivery needs the existing catalogs.
        let directory = try format.importsSource && arguments.value("catalogs") != nil
            ? URL(fileURLWithPath: arguments.value("catalogs")!) : CatalogLocator.directory(arguments)
        let result: CatalogContent
        let written: [String]
        var kept: [ConversionError.Problem] = []
        do {
            if format.importsSource {
                // What lookd cannot hold is left out and carried in imported/FORMAT (the export writes it back);
                // what is wrong in the file is refused.
                let (imported, problems) = try format.readSkippingProblems(input)
                let refused = arguments.flag("keep-unreadable") ? [] : problems.filter { !Self.isCarried($0) }
                if !refused.isEmpty { throw ConversionError(refused) }
                kept = problems
                result = imported
                written = imported.files.map(\.name)
            } else {
                let imported = try format.read(input)
                let existing = try CatalogContent.load(directory: directory)
                result = try existing.merging(translationsOf: imported)
                written = imported.locales.map { $0.identifier + ".json" }
            }
        } catch let error as ConversionError {
            // A file that cannot be read at all is an input problem, like a path that does not exist: exit 2. A file
            // read whose strings are refused: exit 1.
            let unreadable = error.problems.contains(where: Self.isUnreadable)
            Console.error("lookd import: \(path) cannot be \(unreadable ? "read" : "imported"); nothing was written. \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s"):\n"
                + ProblemSummary.lines(error.problems).joined(separator: "\n"))
            return unreadable ? 2 : 1
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
        // Without "locales" configured, the locales an import brings are the project's (not only lookd's 50).
        if configuration.locales == nil, format.importsSource { configuration.locales = ["en"] + result.locales.map(\.identifier) }
        let findings: [LintFinding]
        do {
            findings = try Linter(configuration: configuration).lint(inputs).filter { written.contains($0.fileName) }
        } catch {
            throw UsageError(error.description)
        }
        // A missing translation is imported as missing: a finding to fix later, not a reason to refuse the rest.
        let blocking = findings.filter { $0.check != .missingKey }
        let report = LintReport(findings: blocking, fileCount: written.count, suppressedCount: 0, toolVersion: lookdVersion)
        if report.fails(strict: false) {
            Console.write(Data(lintFormat.reporter.render(report).utf8))
            let errors = blocking.filter { $0.severity == .error }
            Console.error("lookd import: the result does not lint clean; nothing was written. \(errors.count) error\(errors.count == 1 ? "" : "s") (the report on standard output places them in the \(written.count) catalog files as they would be written):\n"
                + ProblemSummary.lines(errors).joined(separator: "\n"))
            return 1
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for file in files where written.contains(file.name) {
                try Data(file.bytes).write(to: directory.appendingPathComponent(file.name), options: .atomic)
            }
            if format.importsSource {
                try ImportedOriginal.save(ImportedOriginal.keptFiles(input, format: format.name, name: (path as NSString).lastPathComponent),
                                          in: directory, format: format.name)
            }
        } catch {
            throw UsageError("\(directory.path): \(error.localizedDescription)")
        }
        let missing = findings.filter { $0.check == .missingKey }
        if !missing.isEmpty {
            Console.error("lookd import: \(missing.count) missing translation\(missing.count == 1 ? "" : "s") imported as missing (`lookd lint` lists them):\n"
                + ProblemSummary.lines(missing).joined(separator: "\n"))
        }
        if !kept.isEmpty {
            Console.error("lookd import: \(kept.count) string\(kept.count == 1 ? "" : "s") or localization\(kept.count == 1 ? "" : "s") lookd's catalogs cannot hold, kept as they are in \(ImportedOriginal.folderName)/\(format.name) (an export writes them back unchanged):\n"
                + ProblemSummary.lines(kept).joined(separator: "\n"))
        }
        Console.error("lookd import: wrote \(written.joined(separator: ", ")) in \(directory.path)")
        return 0
    }

    /// Problems an import carries beside the catalogs instead of refusing the file: constructs lookd's catalogs
    /// have no place for (markup, arrays, device variations) and translations of strings the source lacks.
    /// What is wrong in the file (syntax, arguments) is refused.
    static func isCarried(_ problem: ConversionError.Problem) -> Bool {
        problem.kind == .unsupported || problem.kind == .unknownKey
    }

    /// A problem with a whole file's syntax rather than with one string (XML or JSON not well-formed, bytes that are
    /// not UTF-8, elements nested deeper than 100): the file cannot be read at all.
    static func isUnreadable(_ problem: ConversionError.Problem) -> Bool {
        problem.key == nil && problem.kind == .syntax
    }
}
