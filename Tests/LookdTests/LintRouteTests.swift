import Foundation
import LookdServer
import Testing

@Suite("POST /v1/lint", .timeLimit(.minutes(10)))
struct LintRouteTests {
    static let catalogs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Resources/Localizations")

    static func text(_ tag: String) throws -> String {
        try String(contentsOf: catalogs.appendingPathComponent("\(tag).json"), encoding: .utf8)
    }

    static func body(_ catalogs: [(String, String)], configuration: [String: Any]? = nil) -> [UInt8] {
        var object: [String: Any] = ["catalogs": catalogs.map { ["name": $0.0, "text": $0.1] }]
        if let configuration { object["configuration"] = configuration }
        return json(object)
    }

    @Test func findingsMatchTheCommandLineLinter() throws {
        let directory = try TemporaryDirectory()
        let daemon = try InProcessApp()
        let english = try Self.text("en")
        // Break the German catalog: drop an argument from a plural message and unbalance a brace.
        var german = try Self.text("de")
        german = german.replacingOccurrences(of: "\"thread.unread\": \"", with: "\"thread.unread\": \"{count, plural, other {kaputt}\" , \"x\": \"")
        let answer = try daemon.request("POST", "/v1/lint", body: Self.body([("en.json", english), ("de.json", german)]))
        #expect(answer.status == 200)
        #expect(answer.header("X-Lint-Result") == "fail")
        let findings = try #require(answer.json["findings"] as? [[String: Any]])
        #expect(!findings.isEmpty)
        #expect(findings.allSatisfy { ($0["line"] as? Int ?? 0) >= 1 && $0["check"] is String })

        // The same files through `lookd lint --format json`: the same findings.
        let files = directory.path + "/catalogs"
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        try english.write(toFile: files + "/en.json", atomically: true, encoding: .utf8)
        try german.write(toFile: files + "/de.json", atomically: true, encoding: .utf8)
        let (status, output, _) = try runLookd(["lint", "--format", "json", files])
        #expect(status == 1)
        let cli = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let cliFindings = try #require(cli["findings"] as? [[String: Any]])
        func identity(_ finding: [String: Any]) -> String {
            "\(finding["check"] ?? "")|\(finding["key"] ?? "")|\(finding["line"] ?? "")|\(finding["column"] ?? "")|\(finding["fingerprint"] ?? "")"
        }
        #expect(findings.map(identity) == cliFindings.map(identity))
    }

    @Test func cleanCatalogsPassAndFormatsDiffer() throws {
        let daemon = try InProcessApp()
        let inputs = [("en.json", try Self.text("en")), ("fr.json", try Self.text("fr"))]
        let clean = try daemon.request("POST", "/v1/lint", body: Self.body(inputs))
        #expect(clean.status == 200)
        #expect(clean.header("X-Lint-Result") == "pass")
        #expect((clean.json["summary"] as? [String: Any])?["errors"] as? Int == 0)
        let sarif = try daemon.request("POST", "/v1/lint?format=sarif", body: Self.body(inputs))
        #expect(sarif.json["version"] as? String == "2.1.0")
        let text = try daemon.request("POST", "/v1/lint?format=text", body: Self.body(inputs))
        #expect(text.header("Content-Type")?.hasPrefix("text/plain") == true)
        #expect(try daemon.request("POST", "/v1/lint?format=xml", body: Self.body(inputs)).errorCode == "parameter_invalid")
    }

    @Test func inputProblemsAreRefused() throws {
        var limits = Limits()
        limits.maxLintLocales = 2
        let daemon = try InProcessApp(limits: limits)
        let noSource = try daemon.request("POST", "/v1/lint", body: Self.body([("de.json", "{}")]))
        #expect(noSource.status == 400)
        #expect(noSource.errorCode == "lint_input_invalid")
        let tooMany = try daemon.request("POST", "/v1/lint", body: Self.body([("en.json", "{}"), ("de.json", "{}"), ("fr.json", "{}")]))
        #expect(tooMany.errorCode == "limit_exceeded")
        let path = try daemon.request("POST", "/v1/lint", body: Self.body([("../en.json", "{}")]))
        #expect(path.errorCode == "lint_input_invalid")
        let malformed = try daemon.request("POST", "/v1/lint", body: Array("{\"catalogs\": [".utf8))
        #expect(malformed.errorCode == "json_invalid")
    }
}
