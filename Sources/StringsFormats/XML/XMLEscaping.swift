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
}
