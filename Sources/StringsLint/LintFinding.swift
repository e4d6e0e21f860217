import Strings
/// A place in a catalog file: 1-based line, and 1-based column counted in Unicode code points (scalars).
public struct SourcePosition: Sendable, Hashable, Comparable, Codable {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static let start = SourcePosition(line: 1, column: 1)

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// One problem the linter found.
public struct LintFinding: Sendable, Hashable {
    public let check: LintCheck
    /// After configuration (never `.off`).
    public let severity: LintSeverity
    /// The catalog's name as given to the linter (a path for the CLI).
    public let file: String
    public let position: SourcePosition
    /// The locale tag of the file (its name without `.json`), when the name is one.
    public let locale: String?
    /// The message key the finding is about, if any.
    public let key: String?
    public let message: String
    /// What distinguishes this finding from others of the same check, file and key (an argument name, a plural
    /// category, …) — part of the baseline fingerprint, which deliberately leaves out lines and columns.
    public let subject: String?

    public init(check: LintCheck, severity: LintSeverity, file: String, position: SourcePosition, locale: String?,
                key: String?, message: String, subject: String? = nil) {
        self.check = check
        self.severity = severity
        self.file = file
        self.position = position
        self.locale = locale
        self.key = key
        self.message = message
        self.subject = subject
    }

    /// The file's last path component: baselines match on it so they survive running from another directory.
    public var fileName: String {
        guard let slash = file.lastIndex(of: "/") else { return file }
        return String(file[file.index(after: slash)...])
    }

    /// A stable identity without line or column: check, file, key and subject. The file is its name, followed by
    /// `@` and the locale when the name does not say it (an Android `strings.xml@de`, a String Catalog's
    /// `Localizable.xcstrings@fr`), so that each locale's finding is its own baseline entry; lookd's catalogs
    /// (`de.json`) and files named by their locale (`de.xliff`) are their name alone.
    public var fingerprint: String {
        [check.code, fingerprintFile, key ?? "", subject ?? ""].joined(separator: "|")
    }

    /// The file part of the fingerprint (see `fingerprint`).
    var fingerprintFile: String {
        let name = fileName
        guard let locale, !name.hasSuffix(".json"), name.split(separator: ".").first.map(String.init) != locale else { return name }
        return name + "@" + locale
    }

    /// Orders by file, position, then check code (the order every reporter prints).
    public static func reportOrder(_ lhs: LintFinding, _ rhs: LintFinding) -> Bool {
        if lhs.file != rhs.file { return lhs.file < rhs.file }
        if lhs.position != rhs.position { return lhs.position < rhs.position }
        if lhs.check != rhs.check { return lhs.check.code < rhs.check.code }
        return lhs.message < rhs.message
    }
}

extension Array where Element == LintFinding {
    /// The findings in `LintFinding.reportOrder`, findings that order as equal kept in the order given (a stable
    /// sort), by sorting their indices: the merge sort moving the findings themselves copied, retained and released
    /// their five strings at every move (the two sorts of `lookd lint` on one `lint-xliff` bench file took 7.1 of its
    /// 259 million instructions, callgrind, 3 Dec 2026).
    func sortedForReport() -> [LintFinding] {
        indices.sorted { LintFinding.reportOrder(self[$0], self[$1]) }.map { self[$0] }
    }
}
