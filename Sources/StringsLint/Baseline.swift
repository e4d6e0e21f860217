import Strings
import Foundation
import StableJSON

/// Findings a team has accepted for now (`--baseline FILE`, written by `--update-baseline`), so lint can be
/// adopted without fixing history first. A finding is matched by its fingerprint — check, file name (and locale
/// where the name does not say it), key and subject, never line or column — so edits elsewhere in a file do not revive it; a count per fingerprint means a
/// new, second finding of the same kind is still reported.
public struct Baseline: Sendable, Equatable {
    /// Fingerprint → how many findings with it are accepted.
    public private(set) var accepted: [String: Int]

    public init(findings: [LintFinding] = []) {
        accepted = [:]
        for finding in findings { accepted[finding.fingerprint, default: 0] += 1 }
    }

    /// Splits findings into those still reported and those the baseline accepts.
    public func apply(to findings: [LintFinding]) -> (reported: [LintFinding], suppressed: [LintFinding]) {
        var remaining = accepted
        var reported: [LintFinding] = []
        var suppressed: [LintFinding] = []
        for finding in findings {
            if let count = remaining[finding.fingerprint], count > 0 {
                remaining[finding.fingerprint] = count - 1
                suppressed.append(finding)
            } else {
                reported.append(finding)
            }
        }
        return (reported, suppressed)
    }

    /// The file's JSON: `{"version": 1, "findings": [{"fingerprint", "check", "file", "locale", "key", "message",
    /// "count"}]}` (only the fingerprint and count are read back), sorted,
    /// one finding per line so that a diff of the baseline reads well.
    public func encoded(describing findings: [LintFinding]) -> Data {
        var byFingerprint: [String: LintFinding] = [:]
        for finding in findings where byFingerprint[finding.fingerprint] == nil { byFingerprint[finding.fingerprint] = finding }
        var lines: [String] = []
        for fingerprint in accepted.keys.sorted() {
            var object: [String: JSONValue] = ["fingerprint": .string(fingerprint), "count": .number(JSONNumber(accepted[fingerprint] ?? 1))]
            if let finding = byFingerprint[fingerprint] {
                object["check"] = .string(finding.check.code)
                object["file"] = .string(finding.fileName)
                if let locale = finding.locale { object["locale"] = .string(locale) }
                if let key = finding.key { object["key"] = .string(key) }
                object["message"] = .string(finding.message)
            }
            // One finding per line (compact, by the one writer), so a baseline's diff shows one line per change.
            lines.append("    " + JSONWriter.string(.object(object)))
        }
        let body = lines.isEmpty ? "" : "\n" + lines.joined(separator: ",\n") + "\n  "
        return Data("{\n  \"version\": 1,\n  \"findings\": [\(body)]\n}\n".utf8)
    }

    /// Reads a baseline file.
    public static func decode(_ data: Data) throws(LintConfigurationError) -> Baseline {
        guard let root = try? JSONReader.read(data),
              let version = root["version"]?.intValue, let entries = root["findings"]?.arrayValue else {
            throw LintConfigurationError("not a lookd lint baseline ({\"version\": 1, \"findings\": […]})")
        }
        guard version == 1 else { throw LintConfigurationError("baseline version \(version) is not supported (1)") }
        var baseline = Baseline()
        for entry in entries {
            guard let fingerprint = entry["fingerprint"]?.stringValue else {
                throw LintConfigurationError("every baseline finding needs a \"fingerprint\"")
            }
            baseline.accepted[fingerprint, default: 0] += max(1, entry["count"]?.intValue ?? 1)
        }
        return baseline
    }
}
