import Foundation
import Testing
import TestPrograms

/// `lookd lint` end to end: the executable `swift build --build-tests` put next to the test bundle.
@Suite(.timeLimit(.minutes(10))) struct LintCommandTests {
    struct Run {
        let status: Int32
        let output: String
    }

    func lookd(_ arguments: [String]) throws -> Run {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent()].map { $0.appendingPathComponent("lookd").path }
        let executable = try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
                                      "lookd is not built next to the tests (\(candidates))")
        let (status, output, _) = try runProgram(executable, ["lint"] + arguments, timeout: 120)
        return Run(status: status, output: output)
    }

    @Test func exitStatuses() throws {
        let clean = lintFixture("clean").path
        let defects = lintFixture("defects").path
        let ok = try lookd([clean, "--strict"])
        #expect(ok.status == 0)
        #expect(ok.output == "lookd lint: no problems in 6 files\n")
        #expect(try lookd([defects]).status == 1)
        // Warnings alone fail only with --strict.
        let warningsOnly = [defects + "/en.json", defects + "/sv.json"]
        #expect(try lookd(warningsOnly).status == 0)
        #expect(try lookd(warningsOnly + ["--strict"]).status == 1)
        #expect(try lookd([defects + "/no-such.json"]).status == 2)
        #expect(try lookd([clean, "--format", "xml"]).status == 2)
        #expect(try lookd([clean, "--update-baseline"]).status == 2)
        #expect(try lookd([defects + "/sv.json", "--source", "xx"]).status == 2)
    }

    @Test func formatsAndBaselineFromTheCommandLine() throws {
        let defects = lintFixture("defects").path
        let sarif = try lookd([defects, "--format", "sarif"])
        #expect(sarif.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(sarif.output.utf8)) as? [String: Any]
        #expect(document?["version"] as? String == "2.1.0")
        let github = try lookd([defects, "--format", "github"])
        #expect(github.output.split(separator: "\n").filter { $0.hasPrefix("::error file=\(defects)/") }.count == 15)

        let baseline = FileManager.default.temporaryDirectory.appendingPathComponent("lookd-lint-baseline-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: baseline) }
        #expect(try lookd([defects, "--baseline", baseline, "--update-baseline"]).status == 0)
        let accepted = try lookd([defects, "--baseline", baseline, "--strict"])
        #expect(accepted.status == 0)
        #expect(accepted.output == "lookd lint: no problems in 22 files (25 more accepted by the baseline)\n")
    }
}
