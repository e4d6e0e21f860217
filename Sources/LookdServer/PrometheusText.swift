/// Pieces of the Prometheus text exposition format (0.0.4) that `/metrics` is written in: one sample with its
/// HELP and TYPE lines, a histogram, and label escaping. Pure functions.
enum PrometheusText {
    /// `# HELP`, `# TYPE` and one sample line for a counter or gauge `name`.
    static func sample<T: BinaryInteger>(_ name: String, _ type: String, _ help: String, _ value: T) -> String {
        "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
    }

    /// A histogram `name`: its HELP and TYPE, a cumulative `_bucket` line per upper bound in `bounds` (seconds)
    /// and `+Inf`, then `_sum` and `_count`. `counts` has one entry per bound plus one for values above the last.
    static func histogram(_ name: String, _ help: String, bounds: [Double], counts: [UInt64], sum: Double, count: UInt64) -> String {
        var out = "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        var cumulative: UInt64 = 0
        for (index, bound) in bounds.enumerated() {
            cumulative += counts[index]
            out += "\(name)_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        cumulative += counts[bounds.count]
        out += "\(name)_bucket{le=\"+Inf\"} \(cumulative)\n"
        out += "\(name)_sum \(sum)\n"
        out += "\(name)_count \(count)\n"
        return out
    }

    /// A label value escaped per the format: `\` → `\\`, `"` → `\"`, line feed → `\n`.
    static func escapeLabel(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
