/// XML character escaping for text and attribute values. Pure.
enum XMLEscaping {
    /// `&`, `<`, `>` (and in an attribute `"`) as entities; everything else as is.
    static func escape(_ text: String, attribute: Bool = false) -> String {
        var output = ""
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"" where attribute: output += "&quot;"
            default: output.append(character)
            }
        }
        return output
    }

    /// The five predefined entities and character references (`&#38;`, `&#x26;`) decoded; anything else as is.
    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            output += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else {
                rest = rest[amp...]
                break
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            let decoded: String? = switch entity {
            case "amp": "&"
            case "lt": "<"
            case "gt": ">"
            case "quot": "\""
            case "apos": "'"
            default:
                entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) } : nil
            }
            output += decoded ?? String(rest[amp...semicolon])
            rest = rest[rest.index(after: semicolon)...]
        }
        return output + rest
    }
}
