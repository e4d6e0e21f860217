extension ICUMessage {
    /// The pattern in lookd's canonical spelling: `{name}`, `{name, type, style}`,
    /// `{name, plural, offset:n key {…} key {…}}`; literal `{`, `}` (and `#` in a plural branch) quoted as
    /// `'{'`, an apostrophe doubled only where ICU would otherwise start quoted text. Pure.
    public var pattern: String { print(inPlural: false, closes: false) }

    /// `closes`: the message is a branch, so a `}` follows its last node.
    private func print(inPlural: Bool, closes: Bool) -> String {
        var output = ""
        for (position, node) in nodes.enumerated() {
            switch node {
            case .text(let text):
                let followed = position < nodes.count - 1 || closes
                output += Self.quote(text, inPlural: inPlural, followed: followed)
            case .argument(let name, let type, let style):
                output += "{" + name + (type.map { ", " + $0 } ?? "") + (style.map { ", " + $0 } ?? "") + "}"
            case .pound:
                output += "#"
            case .choice(let choice):
                output += "{\(choice.name), \(choice.kind.rawValue), "
                if let offset = choice.offset { output += "offset:\(offset) " }
                let branchesArePlural = inPlural || choice.kind != .select
                output += choice.cases.map { "\($0.key) {" + $0.message.print(inPlural: branchesArePlural, closes: true) + "}" }
                    .joined(separator: " ")
                output += "}"
            }
        }
        return output
    }

    /// Literal text as MessageFormat text. `followed`: a `{`, `#` or `}` comes right after it.
    static func quote(_ text: String, inPlural: Bool, followed: Bool) -> String {
        // Most text has nothing to quote: returned as it is, not rebuilt a scalar at a time.
        guard text.containsUTF8(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "'") || (inPlural && $0 == UInt8(ascii: "#")) }) else {
            return text
        }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        func special(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "{" || scalar == "}" || (inPlural && scalar == "#")
        }
        for (position, scalar) in scalars.enumerated() {
            if special(scalar) {
                output.append(contentsOf: "'\(scalar)'".unicodeScalars)
            } else if scalar == "'" {
                let next = position + 1 < scalars.count ? scalars[position + 1] : nil
                let needsDoubling = next.map { $0 == "'" || special($0) } ?? followed
                output.append(contentsOf: (needsDoubling ? "''" : "'").unicodeScalars)
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }
}
