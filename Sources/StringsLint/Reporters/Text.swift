import Strings
/// `file:line:col: error[code]: message`, grouped by file (a blank line between files), then a summary line.
/// One finding is one line: a line break, carriage return or tab in the message (a String Catalog key is often
/// the English text, newlines included) is written `\n`, `\r`, `\t`.
public struct TextReporter: LintReporter {
    public init() {}

    public func render(_ report: LintReport) -> String {
        var out = ""
        var currentFile: String?
        for finding in report.shownFindings {
            if let current = currentFile, current != finding.file { out += "\n" }
            currentFile = finding.file
            out += "\(finding.file):\(finding.position.line):\(finding.position.column): \(finding.severity.rawValue)[\(finding.check.code)]: \(Self.oneLine(finding.message))\n"
        }
        if let notice = report.omissionNotice { out += "… \(notice)\n" }
        if !report.findings.isEmpty { out += "\n" }
        out += "lookd lint: \(report.summary)\n"
        return out
    }

    /// `text` with line breaks, carriage returns and tabs written as `\n`, `\r`, `\t`.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\t" }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
