import StringsFormats
import StringsLint

/// One block of lines for many problems of a run: a count per kind with the first examples, instead of a line
/// per problem (a real import can have thousands, one per localization).
enum ProblemSummary {
    /// How many examples each kind shows.
    static let examples = 3

    /// `  KIND (N): first; second; third (and N more)` per kind, kinds in order of first appearance.
    static func lines(_ items: [(kind: String, text: String)]) -> [String] {
        var order: [String] = []
        var byKind: [String: [String]] = [:]
        for item in items {
            if byKind[item.kind] == nil { order.append(item.kind) }
            byKind[item.kind, default: []].append(item.text)
        }
        return order.map { kind in
            let texts = byKind[kind] ?? []
            let shown = texts.prefix(examples).map(escaped).joined(separator: "; ")
            return "  \(kind) (\(texts.count)): \(shown)" + (texts.count > examples ? " (and \(texts.count - examples) more)" : "")
        }
    }

    /// The conversion problems by kind.
    static func lines(_ problems: [ConversionError.Problem]) -> [String] {
        lines(problems.map { (kind: kindName($0.kind), text: $0.description) })
    }

    /// The lint findings by check, each example naming its locale.
    static func lines(_ findings: [LintFinding]) -> [String] {
        lines(findings.map { finding in
            (kind: finding.check.code, text: [finding.key.map { "key '\($0)'" }, finding.locale.map { "locale \($0)" }].compactMap { $0 }.joined(separator: ", ") + ": " + finding.message)
        })
    }

    static func kindName(_ kind: ConversionError.Problem.Kind) -> String {
        switch kind {
        case .unsupported: "unsupported"
        case .argument: "argument"
        case .argumentType: "argument-type"
        case .syntax: "syntax"
        case .unknownKey: "unknown-key"
        case .markup: "markup"
        }
    }

    /// Line breaks and tabs as `\n` and `\t`, so one example stays one line.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\t", with: "\\t")
    }
}
