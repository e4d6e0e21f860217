import LookdServer
import Foundation
import Strings
import StringsFormats
import StringsLint

/// `lookd lint [PATH…] [--source TAG] [--format text|json|github|sarif] [--strict] [--config FILE]
///  [--baseline FILE] [--update-baseline]`
enum LintCommand: Command {
    static let name = "lint"
    static let summary = "check translation catalogs against the source (CI)"
    static let usage = """
        lookd lint [PATH...] [--source TAG] [--format text|json|github|sarif] [--strict] [--config FILE]
                   [--baseline FILE] [--update-baseline]
        PATH: a folder of catalogs (every *.json but lookd-lint.json) or catalog files; default Resources/Localizations.
              Also a String Catalog (.xcstrings), an Android res/ folder (with values/strings.xml) or an XLIFF
              (.xliff, .xlf), checked in their own terms (docs/formats.md); a project folder above them (app/):
              every res/ folder and String Catalog below it (build/, node_modules and hidden folders skipped).
        The source catalog (<TAG>.json, default en) is taken from the paths, else from the first file's folder.
        --config FILE     severities per check, locale and key, allowed identical values (default: lookd-lint.json
                          next to the catalogs, when present)
        --baseline FILE   accept the findings recorded in FILE; with --update-baseline, record the current ones
        --strict          warnings fail the run too
        Exit: 0 no errors (no warnings either with --strict), 1 findings that fail the run, 2 usage or I/O problems.
        Checks and formats: the README, section `lookd lint`.
        """

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["source", "format", "strict", "config", "baseline", "update-baseline"])
        let formatName = arguments.value("format") ?? "text"
        guard let format = LintFormat(rawValue: formatName) else {
            throw UsageError("--format must be text, json, github or sarif (got '\(formatName)')")
        }
        let updateBaseline = arguments.flag("update-baseline")
        if updateBaseline, arguments.value("baseline") == nil { throw UsageError("--update-baseline needs --baseline FILE") }

        let paths = arguments.positionals.isEmpty ? ["Resources/Localizations"] : arguments.positionals
        var files: [String] = []
        var folders: [String] = []
        var formatInputs: [FormatLintInput] = []
        var projectFolders: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw UsageError("\(path): no such file or directory")
            }
            do {
                if let input = try FormatLintInput.detect(path: path) {
                    formatInputs.append(input)
                    continue
                }
            } catch {
                throw UsageError("\(path): \(error.localizedDescription)")
            }
            if isDirectory.boolValue {
                let names: [String]
                do {
                    names = try FileManager.default.contentsOfDirectory(atPath: path)
                } catch {
                    throw UsageError("\(path): cannot list the folder (\(error.localizedDescription))")
                }
                // A project folder above its catalogs (`lookd lint app/`): its Android res/ folders and String Catalogs.
                let sourceFile = (arguments.value("source") ?? "en") + ".json"
                if !names.contains(sourceFile), !names.contains(LintConfiguration.fileName) {
                    let found = ProjectSearch.lintableInputs(under: path)
                    if !found.isEmpty {
                        projectFolders.append(path)
                        Console.error("lookd lint: \(path): linting \(found.joined(separator: ", "))")
                        for inner in found {
                            do {
                                if let input = try FormatLintInput.detect(path: inner) { formatInputs.append(input) }
                            } catch {
                                throw UsageError("\(inner): \(error.localizedDescription)")
                            }
                        }
                        continue
                    }
                    if !names.contains(where: { $0.hasSuffix(".json") }) {
                        throw UsageError("\(path): nothing to lint: no lookd catalogs (*.json), Android res/ folder (strings in values/) or String Catalog (*.xcstrings) in it or below it")
                    }
                }
                folders.append(path)
                for name in names.sorted() where name.hasSuffix(".json") && name != LintConfiguration.fileName {
                    files.append(join(path, name))
                }
            } else {
                files.append(path)
            }
        }

        var configuration = LintConfiguration()
        let configPath = arguments.value("config") ?? (folders + projectFolders + files.map(parent)).lazy
            .map { join($0, LintConfiguration.fileName) }.first { FileManager.default.fileExists(atPath: $0) }
        if let configPath {
            let data = try Console.read(path: configPath)
            do {
                configuration = try LintConfiguration.parse(data)
            } catch {
                throw UsageError("\(configPath): \(error.description)")
            }
        }
        if let source = arguments.value("source") { configuration.source = source }

        let sourceName = configuration.sourceTag + ".json"
        if !(files.isEmpty && folders.isEmpty), !files.contains(where: { ($0 as NSString).lastPathComponent == sourceName }) {
            let candidates = (folders + files.map(parent)).map { join($0, sourceName) }
            guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                throw UsageError("no source catalog \(sourceName) in \(paths.joined(separator: ", ")) (set another with --source TAG)")
            }
            files.append(found)
        }

        let inputs: [CatalogInput] = files.map { path in
            if let data = FileManager.default.contents(atPath: path) { return CatalogInput(name: path, bytes: [UInt8](data)) }
            return CatalogInput(name: path, unreadable: FileManager.default.isReadableFile(atPath: path) ? "read failed" : "not readable")
        }
        var findings: [LintFinding] = []
        do {
            if !inputs.isEmpty { findings = try Linter(configuration: configuration).lint(inputs) }
        } catch {
            throw UsageError(error.description)
        }
        findings += formatInputs.flatMap { Linter(configuration: configuration).lint($0) }

        var reported = findings
        var suppressed = 0
        if let baselinePath = arguments.value("baseline") {
            if updateBaseline {
                let baseline = Baseline(findings: findings)
                do {
                    try baseline.encoded(describing: findings).write(to: URL(fileURLWithPath: baselinePath), options: .atomic)
                } catch {
                    throw UsageError("\(baselinePath): cannot write the baseline (\(error.localizedDescription))")
                }
                Console.error("lookd lint: recorded \(findings.count) finding\(findings.count == 1 ? "" : "s") in \(baselinePath)")
                return 0
            }
            let data = try Console.read(path: baselinePath)
            let baseline: Baseline
            do {
                baseline = try Baseline.decode(data)
            } catch {
                throw UsageError("\(baselinePath): \(error.description)")
            }
            let split = baseline.apply(to: findings)
            reported = split.reported
            suppressed = split.suppressed.count
        }

        let report = LintReport(findings: reported, fileCount: inputs.count + formatInputs.map(\.fileCount).reduce(0, +), suppressedCount: suppressed, toolVersion: lookdVersion)
        Console.write(Data(format.reporter.render(report).utf8))
        return report.fails(strict: arguments.flag("strict")) ? 1 : 0
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private static func parent(_ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }
}
