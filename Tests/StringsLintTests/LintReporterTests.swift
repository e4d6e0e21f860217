import Foundation
@testable import StringsLint
import Strings
import Testing

@Suite(.timeLimit(.minutes(10))) struct LintReporterTests {
    func report() throws -> LintReport {
        let findings = try Linter().lint(try catalogInputs(lintFixture("defects")))
        return LintReport(findings: findings, fileCount: 22, suppressedCount: 2, toolVersion: "9.9.9")
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func textKeepsOneFindingOnOneLine() {
        // String Catalog keys are often the English text, line breaks included.
        let finding = LintFinding(check: .missingKey, severity: .error, file: "Localizable.xcstrings", position: SourcePosition(line: 4, column: 5),
                                  locale: "de", key: "Hello\nWorld", message: "de: missing key 'Hello\nWorld\tagain\r'")
        let text = TextReporter().render(LintReport(findings: [finding], fileCount: 1))
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).first == "Localizable.xcstrings:4:5: error[missing-key]: de: missing key 'Hello\\nWorld\\tagain\\r'")
        #expect(text.split(separator: "\n").count == 2)  // the finding and the summary
    }

    @Test func text() throws {
        let report = try report()
        let text = TextReporter().render(report)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains("ru.json:3:14: error[missing-plural-category]: 'items': {count, plural} lacks 'many', which ru selects for 0, 5, 6…"))
        #expect(lines.contains("de.json:5:3: error[duplicate-key]: key 'greeting' is also written on line 2; JSON decoders keep only this last one"))
        // Grouped: a blank line between files, none inside a file.
        let deLines = lines.filter { $0.hasPrefix("de.json:") }
        #expect(deLines.count == 2)
        let first = try #require(lines.firstIndex { $0.hasPrefix("de.json:") })
        #expect(lines[first - 1].isEmpty && lines[first + 1].hasPrefix("de.json:") && lines[first + 2].isEmpty)
        #expect(lines.last { !$0.isEmpty } == "lookd lint: 15 errors, 10 warnings in 21 of 22 files (2 more accepted by the baseline)")
        #expect(TextReporter().render(LintReport(findings: [], fileCount: 3)) == "lookd lint: no problems in 3 files\n")
    }

    @Test func json() throws {
        let report = try report()
        let document = try object(JSONReporter().render(report))
        #expect(document["schemaVersion"] as? Int == 1)
        let summary = try #require(document["summary"] as? [String: Int])
        #expect(summary == ["files": 22, "errors": 15, "warnings": 10, "suppressed": 2])
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.count == report.findings.count)
        let ru = try #require(findings.first { $0["file"] as? String == "ru.json" })
        #expect(ru["check"] as? String == "missing-plural-category")
        #expect(ru["severity"] as? String == "error")
        #expect(ru["line"] as? Int == 3 && ru["column"] as? Int == 14)
        #expect(ru["locale"] as? String == "ru" && ru["key"] as? String == "items")
        #expect(ru["fingerprint"] as? String == "missing-plural-category|ru.json|items|count:many")
        let unreadable = try #require(findings.first { $0["file"] as? String == "uk.json" })
        #expect(unreadable["key"] is NSNull)
    }

    @Test func github() throws {
        let lines = GitHubReporter().render(try report()).split(separator: "\n").map(String.init)
        #expect(lines.contains("::error file=ru.json,line=3,col=14,title=lookd lint missing-plural-category::'items': {count, plural} lacks 'many', which ru selects for 0, 5, 6…"))
        #expect(lines.contains { $0.hasPrefix("::warning file=sv.json,line=4,col=14,title=lookd lint identical-to-source::") })
        #expect(lines.filter { $0.hasPrefix("::error ") }.count == 15)
        #expect(lines.filter { $0.hasPrefix("::warning ") }.count == 10)
        #expect(GitHubReporter.escapeProperty("a,b:c%\n") == "a%2Cb%3Ac%25%0A")
        #expect(GitHubReporter.escapeData("a,b:c%\r\n") == "a,b:c%25%0D%0A")
    }

    /// SARIF 2.1.0, checked structurally the way code-scanning ingestion reads it.
    @Test func sarif() throws {
        let report = try report()
        let document = try object(SARIFReporter().render(report))
        #expect(document["version"] as? String == "2.1.0")
        #expect((document["$schema"] as? String)?.contains("sarif-2.1.0") == true)
        let runs = try #require(document["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = runs[0]
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "lookd-lint")
        #expect(driver["version"] as? String == "9.9.9")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == LintCheck.allCases.map(\.code))
        for rule in rules {
            #expect((rule["shortDescription"] as? [String: Any])?["text"] is String)
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(level == "error" || level == "warning")
        }
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == report.findings.count)
        for (result, finding) in zip(results, report.findings) {
            let ruleID = try #require(result["ruleId"] as? String)
            #expect(ruleID == finding.check.code)
            let ruleIndex = try #require(result["ruleIndex"] as? Int)
            #expect(rules[ruleIndex]["id"] as? String == ruleID)
            #expect(["error", "warning"].contains(result["level"] as? String))
            #expect((result["message"] as? [String: Any])?["text"] as? String == finding.message)
            let locations = try #require(result["locations"] as? [[String: Any]])
            let physical = try #require(locations.first?["physicalLocation"] as? [String: Any])
            #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == finding.file)
            let region = try #require(physical["region"] as? [String: Any])
            #expect(region["startLine"] as? Int == finding.position.line)
            #expect(region["startColumn"] as? Int == finding.position.column)
            #expect((result["partialFingerprints"] as? [String: String])?["lookdLint/v1"] == finding.fingerprint)
        }
        #expect(SARIFReporter.uri("./Resources/Localizations/pt BR.json") == "Resources/Localizations/pt%20BR.json")
        #expect(SARIFReporter.uri("/work/de.json") == "file:///work/de.json")
    }
}
