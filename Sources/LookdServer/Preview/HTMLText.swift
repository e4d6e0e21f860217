/// Text made safe for HTML element content and double-quoted attribute values: `& < > " '` are escaped, and
/// control characters other than tab and newline are dropped. Team-supplied text (app name, topic labels,
/// reply expectation, prefill) always goes through this.
struct HTMLText: CustomStringConvertible {
    let escaped: String

    init(_ raw: String) {
        var out = ""
        out.reserveCapacity(raw.utf8.count)
        for scalar in raw.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        escaped = out
    }

    var description: String { escaped }
}
