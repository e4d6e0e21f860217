import Strings
import StableJSON
/// The outcome of one lint run, as every reporter prints it.
public struct LintReport: Sendable {
    /// Reported findings, in report order.
    public let findings: [LintFinding]
    /// How many catalog files were checked.
    public let fileCount: Int
    /// Findings the baseline accepted (not in `findings`).
    public let suppressedCount: Int
    /// The tool version printed by the machine-readable formats.
    public let toolVersion: String
    /// Most findings the reporters print (nil: all). The summary still counts every finding, and the
    /// reporters say how many they left out ("and 69,990 more findings"). The daemon sets it; the CLI does not.
    public let findingLimit: Int?

    public init(findings: [LintFinding], fileCount: Int, suppressedCount: Int = 0, toolVersion: String = "0.1.0", findingLimit: Int? = nil) {
        self.findings = findings
        self.fileCount = fileCount
        self.suppressedCount = suppressedCount
        self.toolVersion = toolVersion
        self.findingLimit = findingLimit.map { max(0, $0) }
    }

    /// The findings the reporters print: the first `findingLimit` of `findings`.
    public var shownFindings: ArraySlice<LintFinding> { findings.prefix(findingLimit ?? findings.count) }
    /// How many findings the reporters leave out (0 unless over `findingLimit`).
    public var omittedCount: Int { findings.count - shownFindings.count }
    /// "and 69,990 more findings (the report is limited to 1,000)", or nil when nothing was left out.
    public var omissionNotice: String? {
        guard omittedCount > 0, let findingLimit else { return nil }
        return "and \(CountText.grouped(omittedCount)) more \(omittedCount == 1 ? "finding" : "findings") (the report is limited to \(CountText.grouped(findingLimit)))"
    }

    public var errorCount: Int { findings.count { $0.severity == .error } }
    public var warningCount: Int { findings.count { $0.severity == .warning } }

    /// Whether the run fails: any error, or with `strict` any warning too.
    public func fails(strict: Bool) -> Bool { errorCount > 0 || (strict && warningCount > 0) }

    /// "2 errors, 1 warning in 2 of 41 files" / "no problems in 41 files", plus the baseline's share.
    public var summary: String {
        let files = Set(findings.map(\.file)).count
        var text = findings.isEmpty
            ? "no problems in \(fileCount) \(fileCount == 1 ? "file" : "files")"
            : "\(Self.plural(errorCount, "error")), \(Self.plural(warningCount, "warning")) in \(files) of \(fileCount) \(fileCount == 1 ? "file" : "files")"
        if suppressedCount > 0 { text += " (\(suppressedCount) more accepted by the baseline)" }
        return text
    }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

}

/// Turns a report into bytes in one output format.
public protocol LintReporter {
    func render(_ report: LintReport) -> String
}

/// The output formats of `lookd lint --format`.
public enum LintFormat: String, Sendable, CaseIterable {
    case text, json, github, sarif

    public var reporter: any LintReporter {
        switch self {
        case .text: TextReporter()
        case .json: JSONReporter()
        case .github: GitHubReporter()
        case .sarif: SARIFReporter()
        }
    }
}
