/// The escaping Android's resource compiler applies to `<string>` and `<item>` text (after XML entities):
/// `\'`, `\"`, `\\`, `\n`, `\t`, `\uXXXX`, a leading `\@` or `\?` (else a resource reference), and double
/// quotes around text whose leading, trailing or repeated spaces must survive (unquoted whitespace runs
/// collapse to one space and are trimmed at the ends). Pure functions.
public enum AndroidStringEscaping {
    /// `value` escaped for a resource (not yet XML-escaped).
    public static func escape(_ value: String) -> String {
        var body = ""
        for (position, character) in value.enumerated() {
            switch character {
            case "\\": body += "\\\\"
            case "'": body += "\\'"
            case "\"": body += "\\\""
            case "\n": body += "\\n"
            case "\t": body += "\\t"
            case "@" where position == 0, "?" where position == 0: body += "\\" + String(character)
            default: body.append(character)
            }
        }
        let needsQuotes = value.first == " " || value.last == " " || value.contains("  ")
        return needsQuotes ? "\"" + body + "\"" : body
    }

    /// The string Android shows for resource text `raw` (XML entities already resolved). Throws
    /// `ConversionError` (no key; the caller's) for a malformed `\u` escape or an apostrophe that is neither
    /// escaped nor quoted (Android's compiler refuses both).
    /// `quotesAreText`: Compose Multiplatform resources (`composeResources/values*/strings.xml`), whose reader
    /// does not escape quotes ("you don't have to mirror quotes", its maintainers): `'` and `"` are characters.
    public static func unescape(_ raw: String, quotesAreText: Bool = false) throws -> String {
        var output = ""
        var quoted = false
        var pendingSpace = false
        var iterator = Array(raw).makeIterator()
        func append(_ text: String) {
            if pendingSpace, !output.isEmpty { output += " " }
            pendingSpace = false
            output += text
        }
        while let character = iterator.next() {
            switch character {
            case "\\":
                guard let escaped = iterator.next() else { break }
                switch escaped {
                case "n": append("\n")
                case "t": append("\t")
                case "u":
                    var hex = ""
                    for _ in 0..<4 { if let digit = iterator.next() { hex.append(digit) } }
                    guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                        throw ConversionError(key: nil, reason: "malformed \\u escape in '\(raw)'", kind: .syntax)
                    }
                    append(String(Character(scalar)))
                default: append(String(escaped))
                }
            case "\"" where !quotesAreText:
                quoted.toggle()
            case "'" where !quoted && !quotesAreText:
                throw ConversionError(key: nil, reason: "apostrophe not preceded by \\ (aapt2 rejects it)", kind: .syntax)
            case " ", "\n", "\t", "\r":
                if quoted { append(String(character)) } else { pendingSpace = true }
            default:
                append(String(character))
            }
        }
        return output
    }
}
