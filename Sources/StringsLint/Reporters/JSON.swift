import StableJSON
import Strings

/// A stable JSON document (schema version 1, documented in the README, section `lookd lint`):
/// `{"schemaVersion": 1, "tool": {...}, "summary": {...}, "findings": [{check, severity, file, line, column,
/// locale, key, message, fingerprint}]}`. Keys sorted; absent `locale` / `key` are null; when the report is
/// limited, `summary.omitted` and `summary.omittedNotice` say how many findings were left out. Written by StableJSON's writer.
public struct JSONReporter: LintReporter {
    public init() {}

    public func render(_ report: LintReport) -> String {
        let findings: [JSONValue] = report.shownFindings.map { finding in
            .object([
                "check": .string(finding.check.code),
                "severity": .string(finding.severity.rawValue),
                "file": .string(finding.file),
                "line": .number(JSONNumber(finding.position.line)),
                "column": .number(JSONNumber(finding.position.column)),
                "locale": finding.locale.map { .string($0) } ?? .null,
                "key": finding.key.map { .string($0) } ?? .null,
                "message": .string(finding.message),
                "fingerprint": .string(finding.fingerprint),
            ])
        }
        var summary: [String: JSONValue] = [
            "files": .number(JSONNumber(report.fileCount)), "errors": .number(JSONNumber(report.errorCount)),
            "warnings": .number(JSONNumber(report.warningCount)), "suppressed": .number(JSONNumber(report.suppressedCount)),
        ]
        if let notice = report.omissionNotice {
            summary["omitted"] = .number(JSONNumber(report.omittedCount))
            summary["omittedNotice"] = .string(notice)
        }
        let document: JSONValue = .object([
            "schemaVersion": .number(1),
            "tool": .object(["name": .string("lookd lint"), "version": .string(report.toolVersion)]),
            "summary": .object(summary),
            "findings": .array(findings),
        ])
        return JSONWriter.string(document, pretty: true) + "\n"
    }
}
