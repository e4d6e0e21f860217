import Strings
import Foundation

/// SARIF 2.1.0 (OASIS), as code-scanning services accept it: one run, the tool's rules (every check, with its
/// default level), one result per finding with a physical location (file URI relative to the working directory,
/// line and column in Unicode code points) and a partial fingerprint that ignores line moves.
public struct SARIFReporter: LintReporter {
    public init() {}

    public static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

    public func render(_ report: LintReport) -> String {
        let checks = LintCheck.allCases
        let rules: [[String: Any]] = checks.map { check in
            [
                "id": check.code,
                "name": Self.ruleName(check),
                "shortDescription": ["text": check.title],
                "fullDescription": ["text": check.explanation],
                "defaultConfiguration": ["level": check.defaultSeverity == .error ? "error" : "warning"],
                "help": ["text": check.explanation],
            ]
        }
        let results: [[String: Any]] = report.findings.map { finding in
            [
                "ruleId": finding.check.code,
                "ruleIndex": checks.firstIndex(of: finding.check)!,
                "level": finding.severity == .error ? "error" : "warning",
                "message": ["text": finding.message],
                "locations": [[
                    "physicalLocation": [
                        "artifactLocation": ["uri": Self.uri(finding.file)],
                        "region": ["startLine": finding.position.line, "startColumn": finding.position.column],
                    ],
                ]],
                "partialFingerprints": ["lookdLint/v1": finding.fingerprint],
            ]
        }
        let document: [String: Any] = [
            "$schema": Self.schema,
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "lookd-lint",
                    "fullName": "lookd lint (translation catalog linter)",
                    "version": report.toolVersion,
                    "semanticVersion": report.toolVersion,
                    "rules": rules,
                ]],
                "columnKind": "unicodeCodePoints",
                "results": results,
            ]],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
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
