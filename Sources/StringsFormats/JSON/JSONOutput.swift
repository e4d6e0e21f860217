/// A JSON value to write in Xcode's String Catalog style: two-space indentation, `"key" : value`, members in
/// the order given. A value type.
indirect enum JSONOutput: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case object([(String, JSONOutput)])

    static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool { lhs.text(indent: 0) == rhs.text(indent: 0) }
    func hash(into hasher: inout Hasher) { hasher.combine(text(indent: 0)) }

    /// The value's text; nested lines are indented by `indent` levels.
    func text(indent: Int) -> String {
        switch self {
        case .string(let value): return JSONText.quoted(value)
        case .integer(let value): return String(value)
        case .object(let members):
            guard !members.isEmpty else { return "{\n\n" + String(repeating: "  ", count: indent) + "}" }
            let inner = String(repeating: "  ", count: indent + 1)
            let lines = members.map { inner + JSONText.quoted($0.0) + " : " + $0.1.text(indent: indent + 1) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + String(repeating: "  ", count: indent) + "}"
        }
    }
}
