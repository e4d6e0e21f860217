extension ICUMessage {
    /// The pattern in lookd's canonical spelling: `{name}`, `{name, type, style}`,
    /// `{name, plural, offset:n key {…} key {…}}`; literal `{`, `}` (and `#` in a plural branch) quoted as
    /// `'{'`, an apostrophe doubled only where ICU would otherwise start quoted text. Pure.
    public var pattern: String {
        // Written into one byte buffer: printing with `+` and `+=` of small strings took 18.3 of the 386 million
        // instructions of `lookd lint` on one `lint-xliff` bench file, this 8.7 (callgrind, 2 Dec 2026).
        var output: [UInt8] = []
        output.reserveCapacity(64)
        write(into: &output, inPlural: false, closes: false)
        return String(decoding: output, as: UTF8.self)
    }

    /// `closes`: the message is a branch, so a `}` follows its last node.
    private func write(into output: inout [UInt8], inPlural: Bool, closes: Bool) {
        for (position, node) in nodes.enumerated() {
            switch node {
            case .text(let text):
                let followed = position < nodes.count - 1 || closes
                Self.appendUTF8(Self.quote(text, inPlural: inPlural, followed: followed), to: &output)
            case .argument(let name, let type, let style):
                Self.writeArgument(name: name, type: type, style: style, into: &output)
            case .pound:
                output.append(UInt8(ascii: "#"))
            case .choice(let choice):
                output.append(contentsOf: "{\(choice.name), \(choice.kind.rawValue), ".utf8)
                if let offset = choice.offset { output.append(contentsOf: "offset:\(offset) ".utf8) }
                let branchesArePlural = inPlural || choice.kind != .select
                for (index, branch) in choice.cases.enumerated() {
                    if index > 0 { output.append(UInt8(ascii: " ")) }
                    output.append(contentsOf: branch.key.utf8)
                    output.append(contentsOf: " {".utf8)
                    branch.message.write(into: &output, inPlural: branchesArePlural, closes: true)
                    output.append(UInt8(ascii: "}"))
                }
                output.append(UInt8(ascii: "}"))
            }
        }
    }

    /// `{name}`, `{name, type}` or `{name, type, style}`.
    static func writeArgument(name: String, type: String?, style: String?, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        appendUTF8(name, to: &output)
        if let type {
            output.append(UInt8(ascii: ","))
            output.append(UInt8(ascii: " "))
            appendUTF8(type, to: &output)
        }
        if let style {
            output.append(UInt8(ascii: ","))
            output.append(UInt8(ascii: " "))
            appendUTF8(style, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Appends the UTF-8 of `text` from its contiguous bytes, one copy: appending `text.utf8` as a sequence took
    /// 3.5 of the 260 million instructions of `lookd lint` on one `lint-xliff` bench file (callgrind, 3 Dec 2026).
    static func appendUTF8(_ text: String, to output: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ output.append(contentsOf: $0) }) == nil { output.append(contentsOf: text.utf8) }
    }

    /// Literal text as MessageFormat text. `followed`: a `{`, `#` or `}` comes right after it.
    static func quote(_ text: String, inPlural: Bool, followed: Bool) -> String {
        // Most text has nothing to quote: returned as it is, not rebuilt a scalar at a time.
        guard text.containsUTF8(anyOf: UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "'"), inPlural ? UInt8(ascii: "#") : nil) else {
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
