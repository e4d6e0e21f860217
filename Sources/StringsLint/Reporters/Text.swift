import Strings
/// `file:line:col: error[code]: message`, grouped by file (a blank line between files), then a summary line.
public struct TextReporter: LintReporter {
    public init() {}

    public func render(_ report: LintReport) -> String {
        var out = ""
        var currentFile: String?
        for finding in report.shownFindings {
            if let current = currentFile, current != finding.file { out += "\n" }
            currentFile = finding.file
            out += "\(finding.file):\(finding.position.line):\(finding.position.column): \(finding.severity.rawValue)[\(finding.check.code)]: \(finding.message)\n"
        }
        if let notice = report.omissionNotice { out += "… \(notice)\n" }
        if !report.findings.isEmpty { out += "\n" }
        out += "lookd lint: \(report.summary)\n"
        return out
    }
}
