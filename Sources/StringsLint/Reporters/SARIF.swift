import Foundation
import StableJSON
import Strings

/// SARIF 2.1.0 (OASIS), as code-scanning services accept it: one run, the tool's rules (every check, with its
/// default level), one result per finding with a physical location (file URI relative to the working directory,
/// line and column in Unicode code points) and a partial fingerprint that ignores line moves.
public struct SARIFReporter: LintReporter {
    public init() {}

    public static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

    public func render(_ report: LintReport) -> String {
        let checks = LintCheck.allCases
        func text(_ value: String) -> JSONValue { .object(["text": .string(value)]) }
        func level(_ severity: LintSeverity) -> JSONValue { .string(severity == .error ? "error" : "warning") }
        let rules: [JSONValue] = checks.map { check in
            .object([
                "id": .string(check.code),
                "name": .string(Self.ruleName(check)),
                "shortDescription": text(check.title),
                "fullDescription": text(check.explanation),
                "defaultConfiguration": .object(["level": level(check.defaultSeverity)]),
                "help": text(check.explanation),
            ])
        }
        let results: [JSONValue] = report.shownFindings.map { finding in
            .object([
                "ruleId": .string(finding.check.code),
                "ruleIndex": .number(JSONNumber(checks.firstIndex(of: finding.check) ?? 0)),
                "level": level(finding.severity),
                "message": text(finding.message),
                "locations": .array([.object([
                    "physicalLocation": .object([
                        "artifactLocation": .object(["uri": .string(Self.uri(finding.file))]),
                        "region": .object(["startLine": .number(JSONNumber(finding.position.line)),
                                           "startColumn": .number(JSONNumber(finding.position.column))]),
                    ]),
                ])]),
                "partialFingerprints": .object(["lookdLint/v1": .string(finding.fingerprint)]),
            ])
        }
        var run: [String: JSONValue] = [
            "tool": .object(["driver": .object([
                "name": .string("lookd-lint"),
                "fullName": .string("lookd lint (translation catalog linter)"),
                "version": .string(report.toolVersion),
                "semanticVersion": .string(report.toolVersion),
                "rules": .array(rules),
            ])]),
            "columnKind": .string("unicodeCodePoints"),
            "results": .array(results),
        ]
        // SARIF's own way to say a run's results are incomplete: a tool notification.
        if let notice = report.omissionNotice {
            run["invocations"] = .array([.object(["executionSuccessful": .bool(true),
                                                  "toolExecutionNotifications": .array([.object(["level": .string("warning"), "message": text(notice)])])])])
        }
        let document: JSONValue = .object(["$schema": .string(Self.schema), "version": .string("2.1.0"), "runs": .array([.object(run)])])
        return JSONWriter.string(document, pretty: true) + "\n"
    }

    /// "missing-key" → "MissingKey" (SARIF's rule `name` is an identifier-like label).
    static func ruleName(_ check: LintCheck) -> String {
        check.code.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A relative URI reference for a relative path (percent-encoded, `./` dropped); a `file://` URI for an
    /// absolute one.
    static func uri(_ path: String) -> String {
        var path = path
        while path.hasPrefix("./") { path.removeFirst(2) }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#[]@")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }
}
