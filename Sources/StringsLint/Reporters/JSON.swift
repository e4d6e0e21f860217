import Strings
import Foundation

/// A stable JSON document (schema version 1, documented in the README, section `lookd lint`):
/// `{"schemaVersion": 1, "tool": {...}, "summary": {...}, "findings": [{check, severity, file, line, column,
/// locale, key, message, fingerprint}]}`. Keys sorted; absent `locale` / `key` are null.
public struct JSONReporter: LintReporter {
    public init() {}

    public func render(_ report: LintReport) -> String {
        let findings: [[String: Any]] = report.findings.map { finding in
            [
                "check": finding.check.code,
                "severity": finding.severity.rawValue,
                "file": finding.file,
                "line": finding.position.line,
                "column": finding.position.column,
                "locale": finding.locale.map { $0 as Any } ?? NSNull(),
                "key": finding.key.map { $0 as Any } ?? NSNull(),
                "message": finding.message,
                "fingerprint": finding.fingerprint,
            ]
        }
        let document: [String: Any] = [
            "schemaVersion": 1,
            "tool": ["name": "lookd lint", "version": report.toolVersion],
            "summary": ["files": report.fileCount, "errors": report.errorCount, "warnings": report.warningCount,
                        "suppressed": report.suppressedCount],
            "findings": findings,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
