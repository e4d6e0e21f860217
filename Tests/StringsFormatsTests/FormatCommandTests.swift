import Foundation
import StringsFormats
import Testing
import TestPrograms

/// `lookd export`, `lookd import` and `lookd lint` on the formats, end to end with the built executable.
@Suite(.timeLimit(.minutes(10))) struct FormatCommandTests {
    /// Runs the `lookd` built next to the tests; returns its exit status and standard output.
    static func lookd(_ arguments: String...) throws -> (status: Int32, output: String) { try lookd(arguments) }

    static func lookd(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let executable = try #require([testBundle.deletingLastPathComponent(), testBundle.deletingLastPathComponent().deletingLastPathComponent()]
            .map { $0.appendingPathComponent("lookd").path }.first(where: FileManager.default.isExecutableFile(atPath:)))
        let (status, text, _) = try runProgram(executable, arguments, timeout: 120)
        return (status, text)
    }

    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookd-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// With `--pseudo` the export also carries en-XA and ar-XB; import skips them and writes no catalog for them.
    @Test(arguments: [false, true])
    func exportThenImportRewritesTheSameCatalogs(pseudo: Bool) throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalogs = CatalogFixtures.catalogDirectory.path
        let original = try CatalogFixtures.shippedFiles()
        for (format, out) in [("xcstrings", "L.xcstrings"), ("android", "res")] {
            let exported = folder.appendingPathComponent(out).path
            #expect(try Self.lookd(["export", "--format", format, "--out", exported, "--catalogs", catalogs] + (pseudo ? ["--pseudo"] : [])).status == 0)
            let target = folder.appendingPathComponent("imported-\(format)")
            #expect(try Self.lookd("import", "--format", format, exported, "--catalogs", target.path).status == 0)
            for (name, bytes) in original {
                #expect(FileManager.default.contents(atPath: target.appendingPathComponent(name).path) == Data(bytes), "\(format): \(name)")
            }
            for name in ["en-XA.json", "ar-XB.json"] {
                #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent(name).path), "\(format): \(name)")
            }
        }
        for directory in ["values-en-rXA", "values-ar-rXB"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("res/\(directory)/strings.xml").path) == pseudo)
        }
    }

    /// A project's String Catalog imported then exported comes back byte for byte: the import keeps the file in
    /// imported/xcstrings and the export lays the catalogs onto it (docs/formats.md, "Round trip").
    @Test(arguments: [("xcstrings", "RoundTrip.xcstrings"), ("android", "roundtrip-res")])
    func aProjectsFilesComeBackFromImportAndExport(format: String, fixtureName: String) throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = CatalogFixtures.fixture("realworld/" + fixtureName)
        let catalogs = folder.appendingPathComponent("catalogs")
        #expect(try Self.lookd("import", "--format", format, fixture.path, "--catalogs", catalogs.path).status == 0)
        let out = folder.appendingPathComponent(fixtureName)
        #expect(try Self.lookd("export", "--format", format, "--out", out.path, "--catalogs", catalogs.path).status == 0)
        let original = try FormatFiles.load(path: fixture.path)
        #expect(try FormatFiles.load(path: catalogs.appendingPathComponent("imported/" + format).path).files.values.sorted { $0.count < $1.count }
            == original.files.values.sorted { $0.count < $1.count })
        #expect(try FormatFiles.load(path: out.path) == original)
    }

    @Test func anXLIFFThatDoesNotLintCleanWritesNothing() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, bytes) in try CatalogFixtures.shippedFiles() {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let german = folder.appendingPathComponent("de.json")
        let before = try Data(contentsOf: german)
        let refused = try Self.lookd("import", "--format", "xliff", CatalogFixtures.fixture("defects-de.xliff").path, "--catalogs", folder.path)
        #expect(refused.status == 1)
        #expect(refused.output.contains("argument-mismatch"))
        #expect(try Data(contentsOf: german) == before)

        // A clean delivery is merged: one changed target, the rest as it was.
        let xliff = folder.appendingPathComponent("de.xliff")
        #expect(try Self.lookd("export", "--format", "xliff", "--locale", "de", "--out", xliff.path, "--catalogs", folder.path).status == 0)
        let edited = try String(contentsOf: xliff, encoding: .utf8)
            .replacingOccurrences(of: "<target state=\"translated\">Schließen</target>", with: "<target state=\"translated\">Zumachen</target>")
        try edited.write(to: xliff, atomically: true, encoding: .utf8)
        #expect(try Self.lookd("import", "--format", "xliff", xliff.path, "--catalogs", folder.path).status == 0)
        let after = try String(contentsOf: german, encoding: .utf8)
        #expect(after == String(decoding: before, as: UTF8.self).replacingOccurrences(of: "\"header.close\": \"Schließen\"", with: "\"header.close\": \"Zumachen\""))
        #expect(after != String(decoding: before, as: UTF8.self))
    }

    @Test func lintTakesTheFormatsDirectly() throws {
        let path = CatalogFixtures.fixture("Defects.xcstrings").path
        let run = try Self.lookd("lint", path, "--format", "json")
        #expect(run.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        // Each device variation is a string of its own: Japanese lacks the Mac one (English's on line 239).
        let deviceVariation = try #require(findings.first { $0["key"] as? String == "tap.here (device: mac)" && $0["locale"] as? String == "ja" })
        #expect(deviceVariation["file"] as? String == path)
        #expect(deviceVariation["line"] as? Int == 239)
        #expect(deviceVariation["check"] as? String == "missing-key")
        #expect(try Self.lookd("lint", CatalogFixtures.fixture("defects-res").path, "--format", "sarif").status == 1)
    }
}
