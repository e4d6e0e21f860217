import Strings
/// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message` per finding (annotations on
/// the pull request's diff), then the summary as a plain line.
public struct GitHubReporter: LintReporter {
    public init() {}

    public func render(_ report: LintReport) -> String {
        var out = ""
        for finding in report.shownFindings {
            let command = finding.severity == .error ? "error" : "warning"
            let properties = [
                "file=" + Self.escapeProperty(finding.file),
                "line=\(finding.position.line)",
                "col=\(finding.position.column)",
                "title=" + Self.escapeProperty("lookd lint \(finding.check.code)"),
            ].joined(separator: ",")
            out += "::\(command) \(properties)::\(Self.escapeData(finding.message))\n"
        }
        if let notice = report.omissionNotice { out += "lookd lint: \(notice)\n" }
        out += "lookd lint: \(report.summary)\n"
        return out
    }

    /// The message part: `%`, CR and LF escaped.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property value: also `:` and `,`.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
