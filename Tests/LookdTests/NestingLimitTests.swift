import Foundation
import Strings
import StringsFormats
import Testing

/// Issue 27, rows 1 and 8: input decides how deep a parser recurses, so every such parser is bounded before it
/// runs. MessageFormat patterns: at most 100 levels (ICU's nesting level, docs/hardening.md#nesting-limits);
/// XML: at most 100 nested elements. Each entry point is driven at 10x the limit in process, and at the depth
/// that overflowed an 8 MiB stack (28,000 levels; 100,000 nested XML elements) in a child process (the CLI or a
/// live daemon), so that a crash fails the test without ending the suite.
@Suite("Nesting limits: ICU patterns, XML, pseudo-locales", .timeLimit(.minutes(10)))
struct NestingLimitTests {
    /// `depth` levels of `{a,select,other{` around "y". Level k's sub-message starts at its `{`: code point
    /// 16(k-1) + 15 (each level is the 16 code points "{a,select,other{", the last one the sub-message's).
    static func nested(_ depth: Int) -> String {
        String(repeating: "{a,select,other{", count: depth) + "y" + String(repeating: "}}", count: depth)
    }

    /// The code point where the first sub-message past the 100-level limit (level 101) starts.
    static let firstTooDeep = 16 * 100 + 15

    static func expectTooDeep(_ body: () throws -> Void, _ comment: Comment) {
        do {
            try body()
            Issue.record("accepted: \(comment)")
        } catch FormatError.invalidPattern(_, let error, let offset) {
            #expect(error == "LOOKD_NESTING_TOO_DEEP", comment)
            #expect(offset == firstTooDeep, comment)
        } catch {
            Issue.record("\(comment): \(error)")
        }
    }

    @Test("the limit is 100 levels: 100 formats, 101 and 1,000 are refused before ICU parses them")
    func formatterAndStructureAreBounded() throws {
        #expect(MessageNestingLimit.levels == 100)
        let atLimit = try MessageFormatter(pattern: Self.nested(100), locale: "en")
        #expect(try atLimit.format(["a": .string("x")]) == "y")
        #expect(try MessageStructure(pattern: Self.nested(100)).arguments.count == 100)
        for depth in [101, 1_000] {
            Self.expectTooDeep({ _ = try MessageFormatter(pattern: Self.nested(depth), locale: "en") }, "formatter, \(depth)")
            Self.expectTooDeep({ _ = try MessageStructure(pattern: Self.nested(depth)) }, "structure, \(depth)")
        }
        // Choice nests without a brace per sub-message: 1,000 levels of "{a,choice,0#" are refused the same way.
        let choice = String(repeating: "{a,choice,0#", count: 1_000) + "y" + String(repeating: "}", count: 1_000)
        do {
            _ = try MessageStructure(pattern: choice)
            Issue.record("a 1,000-level choice was accepted")
        } catch FormatError.invalidPattern(_, let error, _) {
            #expect(error == "LOOKD_NESTING_TOO_DEEP")
        }
    }

    @Test("import and export's own parser refuses 1,000 levels; pseudo-locales copy them without recursing")
    func swiftParsersAreBounded() throws {
        #expect(throws: ICUMessageSyntaxError.self) { try ICUMessage(parsing: Self.nested(1_000)) }
        #expect(try ICUMessage(parsing: Self.nested(100)).pattern.contains("y"))
        for locale in [LocaleTag.pseudoAccented, .pseudoBidi] {
            // Past the limit the branches are copied unchanged: the braces still balance.
            let pseudo = PseudoLocalization.pattern(Self.nested(1_000), for: locale)
            #expect(pseudo.filter { $0 == "{" }.count == 2_000)
            #expect(pseudo.filter { $0 == "}" }.count == 2_000)
        }
    }

    @Test("XML: 100 nested elements read, 101 and 1,000 are refused with where the first too deep one starts")
    func xmlDepthIsBounded() throws {
        func document(_ depth: Int) -> [UInt8] {
            Array(("<r>" + String(repeating: "<g>", count: depth - 1) + String(repeating: "</g>", count: depth - 1) + "</r>").utf8)
        }
        #expect(XMLTree.maxDepth == 100)
        #expect(try XMLTree.parse(document(100)).name == "r")
        for depth in [101, 1_000] {
            do {
                _ = try XMLTree.parse(document(depth))
                Issue.record("\(depth) nested elements were accepted")
            } catch let error as ConversionError {
                #expect("\(error)".contains("nested deeper than 100"), "\(error)")
            }
        }
    }

    @Test("POST /v1/lint: 1,000 levels are a syntax-error finding at the first sub-message past the limit")
    func lintRouteReportsTooDeep() throws {
        let app = try InProcessApp()
        let english = String(decoding: json(["k": Self.nested(1_000)]), as: UTF8.self)
        let answer = try app.request("POST", "/v1/lint", body: LintRouteTests.body([("en.json", english)]))
        #expect(answer.status == 200)
        let findings = try #require(answer.json["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings.first?["check"] as? String == "syntax-error")
        let message = try #require(findings.first?["message"] as? String)
        #expect(message.contains("nested deeper than 100 levels"))
        // {"k":" is 6 code points: the pattern starts at column 7.
        #expect(findings.first?["column"] as? Int == 7 + Self.firstTooDeep)
    }

    // MARK: the depths that crashed, in child processes

    static let crashDepth = 28_000

    @Test("a live daemon answers a 28,000-level lint body and stays up")
    func daemonSurvivesCrashDepth() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        let english = String(decoding: json(["k": Self.nested(Self.crashDepth)]), as: UTF8.self)
        let answer = try daemon.request("POST", "/v1/lint", body: LintRouteTests.body([("en.json", english)]))
        #expect(answer.status == 200)
        #expect(answer.text.contains("nested deeper than 100 levels"))
        #expect(try daemon.get("/healthz").status == 200)
        #expect(daemon.stop() == 0)
    }

    @Test("lookd lint and lookd format at 28,000 levels, lookd import of 100,000 nested <group>: a message and an exit status, no crash")
    func commandsSurviveCrashDepth() throws {
        let directory = try TemporaryDirectory()
        let catalogs = directory.path + "/catalogs"
        try FileManager.default.createDirectory(atPath: catalogs, withIntermediateDirectories: true)
        try Data(json(["k": Self.nested(Self.crashDepth)])).write(to: URL(fileURLWithPath: catalogs + "/en.json"))
        let (lintStatus, lintOutput, _) = try runLookd(["lint", catalogs])
        #expect(lintStatus == 1)
        #expect(lintOutput.contains("nested deeper than 100 levels"))

        let formats = directory.path + "/format"
        try FileManager.default.createDirectory(atPath: formats, withIntermediateDirectories: true)
        try Data(json(["k": ["message": Self.nested(Self.crashDepth)]])).write(to: URL(fileURLWithPath: formats + "/en.json"))
        let (formatStatus, _, formatError) = try runLookd(["format", "--key", "k", "--catalogs", formats, "a=x"])
        #expect(formatStatus == 2)
        #expect(formatError.contains("LOOKD_NESTING_TOO_DEEP"), "\(formatError.prefix(500))")

        let xliff = directory.path + "/deep.xliff"
        let groups = 100_000
        let document = "<?xml version=\"1.0\"?><xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">"
            + "<file original=\"a\" source-language=\"en\" target-language=\"de\" datatype=\"plaintext\"><body>"
            + String(repeating: "<group id=\"g\">", count: groups) + String(repeating: "</group>", count: groups)
            + "</body></file></xliff>"
        try Data(document.utf8).write(to: URL(fileURLWithPath: xliff))
        try Data(json(["k": ["message": "y"]])).write(to: URL(fileURLWithPath: formats + "/en.json"))
        let (importStatus, _, importError) = try runLookd(["import", "--format", "xliff", xliff, "--catalogs", formats])
        // Like any file that cannot be read (not well-formed XML, not UTF-8): a message, nothing written, exit 2.
        #expect(importStatus == 2)
        #expect(importError.contains("nested deeper than 100"), "\(importError.prefix(500))")
    }

    @Test("lookd lint: a message nested too deep is a finding with its file:line:column (exit 1), like a locale catalog that is not JSON; only a source catalog it cannot read stops the run (exit 2)")
    func lintExitStatusesByClass() throws {
        let directory = try TemporaryDirectory()
        func lint(source: String, locale: String) throws -> (status: Int32, output: String, error: String) {
            let folder = directory.path + "/\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(source.utf8).write(to: URL(fileURLWithPath: folder + "/en.json"))
            try Data(locale.utf8).write(to: URL(fileURLWithPath: folder + "/de.json"))
            return try runLookd(["lint", folder])
        }
        // `{"k": "` is 7 code points, so the sub-message of level 101 starts at column 7 + firstTooDeep + 1.
        let deep = try lint(source: #"{"k": "a"}"#, locale: #"{"k": ""# + Self.nested(Self.crashDepth) + #""}"#)
        #expect(deep.status == 1)
        #expect(deep.output.contains("de.json:1:\(7 + Self.firstTooDeep + 1): error[syntax-error]"), "\(deep.output.prefix(500))")
        // The value of "b" is missing: line 2, column 7 is the `}` where it should start.
        let notJSON = try lint(source: #"{"k": "a"}"#, locale: "{\"k\": \"a\",\n \"b\": }\n")
        #expect(notJSON.status == 1)
        #expect(notJSON.output.contains("de.json:2:7: error[invalid-json]"), "\(notJSON.output.prefix(500))")
        let sourceNotJSON = try lint(source: "{\"k\": \"a\",\n \"b\": }\n", locale: #"{"k": "a"}"#)
        #expect(sourceNotJSON.status == 2)
        #expect(sourceNotJSON.error.contains("en.json is unusable: 2:7"), "\(sourceNotJSON.error.prefix(500))")
    }
}
