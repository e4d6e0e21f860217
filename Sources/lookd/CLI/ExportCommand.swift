import Foundation
import Strings
import StringsFormats

/// `lookd export --format xcstrings|android|xliff --out PATH [--locale TAG] [--pseudo] [--catalogs DIR]`
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "write the catalogs as a String Catalog, Android resources or XLIFF"
    static let usage = """
        lookd export --format xcstrings|android|xliff --out PATH [--locale TAG] [--pseudo] [--catalogs DIR]
        xcstrings  PATH is the Localizable.xcstrings file (all 50 locales)
        android    PATH is the res/ directory (values/ and values-<qualifier>/strings.xml)
        xliff      PATH is the XLIFF 1.2 file for --locale TAG
        --pseudo adds the pseudo-locales en-XA and ar-XB, generated from English, for layout testing
        (Android: values-en-rXA and values-ar-rXB; XLIFF: --locale en-XA or ar-XB). Import skips them.
        What cannot be expressed is refused with the key named; nothing is written then (exit 1).
        After an import (xcstrings, android), the file(s) it kept in CATALOGS/imported/FORMAT shape the export:
        what the catalogs did not change is written as it was read (docs/formats.md, "Round trip").
        Mappings: docs/formats.md.
        """

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["format", "out", "locale", "catalogs", "pseudo"])
        let format = try FormatArgument.format(arguments)
        guard let out = arguments.value("out") else { throw UsageError("--out PATH is required") }
        let directory = try CatalogLocator.directory(arguments)
        var content: CatalogContent
        do {
            content = try CatalogContent.load(directory: directory)
        } catch {
            throw UsageError("\(error)")
        }
        if arguments.flag("pseudo") { content = content.addingPseudoLocales() }
        let files: FormatFiles
        do {
            if let original = try ImportedOriginal.load(in: directory, format: format.name) {
                files = try format.write(content, onto: original)
            } else {
                files = try format.write(content)
            }
        } catch let error as ConversionError {
            Console.error("lookd export: cannot write \(format.name); nothing was written. \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s"):\n"
                + ProblemSummary.lines(error.problems).joined(separator: "\n"))
            return 1
        } catch {
            throw UsageError("\(error)")
        }
        do {
            try files.write(to: out)
        } catch {
            throw UsageError("\(out): \(error.localizedDescription)")
        }
        Console.error("lookd export: wrote \(format.name) to \(out) (\(files.files.count) file\(files.files.count == 1 ? "" : "s"))")
        return 0
    }
}
