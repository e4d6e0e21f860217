/// Text inside an XML comment, reversibly: a comment may not hold `--`, so a `-` right after another is
/// written `\-`, and a `\` is written `\\`. Continuation lines are indented to line up under `<!-- `.
/// Pure functions.
enum XMLCommentText {
    static let indent = "\n         "

    /// `text` as comment content (without `<!-- ` and ` -->`).
    static func encode(_ text: String) -> String {
        var output = ""
        var previous: Character?
        for character in text {
            switch character {
            case "\\": output += "\\\\"
            case "-" where previous == "-": output += "\\-"
            case "\n": output += indent
            default: output.append(character)
            }
            previous = character
        }
        return output
    }

    /// The text `encode` wrote.
    static func decode(_ content: String) -> String {
        var output = ""
        var escaped = false
        for character in content.replacingOccurrences(of: indent, with: "\n") {
            if escaped {
                output.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                output.append(character)
            }
        }
        return output
    }
}
