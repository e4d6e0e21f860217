import Foundation
import StringsFormats

/// Android lint's issue ids for the translation checks, as projects turn them off: `tools:ignore="…"` on
/// `<resources>` or one resource, and `<issue id="…" severity="ignore"/>` in the project's `lint.xml`.
enum AndroidLintIssues {
    /// lookd's checks that each Android lint issue covers (`all` covers every check).
    static let checks: [String: Set<LintCheck>] = [
        "MissingTranslation": [.missingKey],
        "ExtraTranslation": [.extraKey],
        "MissingQuantity": [.missingPluralCategory, .missingDecimalCategory],
        "UnusedQuantity": [.unreachablePluralCategory],
        "StringFormatMatches": [.argumentType],
        "StringFormatCount": [.argumentMismatch],
        "Untranslatable": [.extraKey],
        "all": Set(LintCheck.allCases),
    ]

    /// The checks `ids` (issue ids) turn off.
    static func checks(for ids: Set<String>) -> Set<LintCheck> {
        ids.reduce(into: []) { $0.formUnion(checks[$1] ?? []) }
    }

    /// The severities the project's `lint.xml` files give lookd's checks through their issues' `severity`:
    /// `ignore` → off, `warning` and `informational` → warning, `error` and `fatal` → error (Android lint's
    /// severities); `default` and unknown values say nothing. Read from the nearest `lint.xml` in the `res/`
    /// folder's parents (`app/src/main/res` → `app/src/main`, `app/src`, `app`, the project root) and, as the
    /// fallback for issues it does not set, the one the module's Gradle build names (`lintConfig`,
    /// `GradleLintConfig`). Where two issues of one file cover one check, the later wins. Empty when there is
    /// no `lint.xml`; an unreadable or malformed one says nothing. Over both, the severities the Gradle DSL sets
    /// (`lint { disable += "MissingTranslation" }`: `GradleLintConfig.severityOverrides`), which Android lint
    /// applies over every `lint.xml`.
    static func severities(projectAbove res: String) -> [LintCheck: LintSeverity] {
        var result = GradleLintConfig.lintXMLPath(projectAbove: res).map(severities(lintXML:)) ?? [:]
        var folder = URL(fileURLWithPath: res).standardizedFileURL
        for _ in 0..<4 {
            folder.deleteLastPathComponent()
            let file = folder.appendingPathComponent("lint.xml").path
            guard FileManager.default.fileExists(atPath: file) else { continue }
            result.merge(severities(lintXML: file)) { _, nearest in nearest }
            break
        }
        // `all` first, so that an issue of its own wins over it.
        for (id, severity) in GradleLintConfig.severityOverrides(projectAbove: res).sorted(by: { ($0.key == "all" ? 0 : 1, $0.key) < ($1.key == "all" ? 0 : 1, $1.key) }) {
            guard let level = levels[severity] else { continue }
            for check in checks(for: [id]) { result[check] = level }
        }
        return result
    }

    /// Android lint's severities as lookd's: `ignore` → off, `warning` and `informational` → warning, `error` and
    /// `fatal` → error.
    private static let levels: [String: LintSeverity] = ["ignore": .off, "warning": .warning, "informational": .warning, "error": .error, "fatal": .error]

    /// The severities one `lint.xml` gives lookd's checks; empty when it cannot be read or is not `<lint>`.
    static func severities(lintXML path: String) -> [LintCheck: LintSeverity] {
        guard let data = FileManager.default.contents(atPath: path),
              let root = try? XMLTree.parse([UInt8](data)), root.name == "lint" else { return [:] }
        var result: [LintCheck: LintSeverity] = [:]
        for issue in root.elements(named: "issue") {
            guard let id = issue.attributes["id"], let severity = issue.attributes["severity"].flatMap({ levels[$0] }) else { continue }
            for check in checks(for: [id]) { result[check] = severity }
        }
        return result
    }
}
