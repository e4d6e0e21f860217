/// Reads the XML that Android resources and XLIFF files are in practice — UTF-8, elements, attributes, text, the
/// five predefined entities and character references, CDATA, comments, namespace prefixes declared in the
/// document — straight from the bytes into the `XMLTree` that Foundation's `XMLParser` would give, element
/// positions included (libxml2 reports an element where its start tag's `>` or `/>` is, the column counted in
/// Unicode scalars). Anything else — a byte order mark, a DOCTYPE, a processing instruction after the XML
/// declaration, another entity, a carriage return, a control character, an undeclared prefix, elements nested
/// deeper than `XMLTree.maxDepth`, and every well-formedness error — makes it decline (nil), and `XMLTree.parse`
/// hands the document to `XMLParser`, whose result and error messages then stand.
///
/// Why it exists: `XMLParser` turned every name, attribute and text into strings through Foundation and its
/// delegate calls, which was 31% of the instructions of the `lint-xliff` bench's lint (callgrind, 2 Dec 2026;
/// docs/benchmarks.md). `XMLSubsetReaderTests` checks that both give the same tree on every fixture and on
/// crafted edge cases. Pure function; thread-safe.
enum XMLSubsetReader {
    /// The document's root element as `XMLParser` would build it, or nil when the document is outside the subset.
    static func parse(_ bytes: [UInt8]) -> XMLTree? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer)
            return reader.document()
        }
    }
}

private struct Reader {
    private struct Open {
        var name: String
        var attributes: [String: String]
        var children: [XMLTree.Child]
        var position: FilePosition
        /// Namespace prefixes this element declares.
        var declared: [String]
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var stack: [Open] = []
    /// Prefixes declared by the open elements, innermost last.
    private var prefixes: [String] = []
    /// Text read since the last element boundary or comment (`XMLParser` hands it over in pieces; the tree
    /// builder joins them).
    private var text: [UInt8] = []
    private var root: XMLTree?
    // Where `position(at:)` last counted to: positions are asked for in increasing offsets, so lines and columns
    // are counted once over the document.
    private var countedOffset = 0
    private var countedLine = 1
    private var countedColumn = 1

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), amp = UInt8(ascii: "&"), slash = UInt8(ascii: "/")

    mutating func document() -> XMLTree? {
        if bytes.starts(with: "<?xml".utf8) {
            guard declaration() else { return nil }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Self.lt {
                guard markup() else { return nil }
            } else if byte == Self.amp {
                guard !stack.isEmpty, let scalar = reference() else { return nil }
                text.append(contentsOf: UTF8.encode(scalar)!)
            } else {
                guard characters() else { return nil }
            }
        }
        guard stack.isEmpty else { return nil }
        return root
    }

    // MARK: Positions

    /// Line and column (Unicode scalars, 1-based) of the byte at `offset`, at or after the last one asked for.
    private mutating func position(at offset: Int) -> FilePosition {
        while countedOffset < offset {
            let byte = bytes[countedOffset]
            if byte == UInt8(ascii: "\n") {
                countedLine += 1
                countedColumn = 1
            } else if byte & 0xC0 != 0x80 {
                countedColumn += 1
            }
            countedOffset += 1
        }
        return FilePosition(line: countedLine, column: countedColumn)
    }

    // MARK: Pieces

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 }

    private mutating func skipSpaces() -> Bool {
        let start = index
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index > start
    }

    private func starts(with literal: String, at offset: Int) -> Bool {
        var at = offset
        for byte in literal.utf8 {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
        }
        return true
    }

    /// A byte libxml2 refuses in text, attribute values, comments and CDATA, or that it rewrites (`\r`); and the
    /// start of U+FFFE / U+FFFF (EF BF BE, EF BF BF), which are not XML characters.
    private func isRefused(at offset: Int) -> Bool {
        let byte = bytes[offset]
        if byte < 0x20 { return byte != 0x09 && byte != 0x0A }
        if byte == 0xEF, offset + 2 < bytes.count, bytes[offset + 1] == 0xBF, bytes[offset + 2] >= 0xBE { return true }
        return false
    }

    /// An ASCII name (`trans-unit`, `xliff:g`, `tools:ignore`): letters, digits, `-`, `_`, `.`, at most one `:`
    /// inside. Names with other characters are left to `XMLParser`.
    private mutating func name() -> String? {
        let start = index
        var colons = 0
        while index < bytes.count {
            let byte = bytes[index]
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
            if isLetter || (index > start && (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "."))) {
                index += 1
            } else if byte == UInt8(ascii: ":"), index > start {
                colons += 1
                index += 1
            } else {
                break
            }
        }
        guard index > start, colons <= 1, bytes[index - 1] != UInt8(ascii: ":") else { return nil }
        if index < bytes.count, bytes[index] >= 0x80 { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// After an attribute's name: `=` (white space around it allowed) and the opening quote, read past; the quote.
    private mutating func valueStart() -> UInt8? {
        _ = skipSpaces()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        _ = skipSpaces()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
        index += 1
        return bytes[index - 1]
    }

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`, each pseudo-attribute but the version optional.
    private mutating func declaration() -> Bool {
        index = 5
        var seen: [String] = []
        while true {
            let spaced = skipSpaces()
            if starts(with: "?>", at: index) {
                index += 2
                return seen.first == "version"
            }
            guard spaced, let name = name(), let quote = valueStart() else { return false }
            let start = index
            guard let end = bytes[start...].firstIndex(of: quote) else { return false }
            let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            index = end + 1
            let expected = ["version", "encoding", "standalone"]
            guard let order = expected.firstIndex(of: name), order >= (seen.last.flatMap { expected.firstIndex(of: $0) }.map { $0 + 1 } ?? 0) else { return false }
            switch name {
            case "version": guard value == "1.0" else { return false }
            case "encoding": guard value.lowercased() == "utf-8" else { return false }
            default: guard value == "yes" || value == "no" else { return false }
            }
            seen.append(name)
        }
    }

    /// Text up to the next `<` or `&`.
    private mutating func characters() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] != Self.lt, bytes[index] != Self.amp {
            if isRefused(at: index) { return false }
            if bytes[index] == Self.gt, index >= 2, bytes[index - 1] == UInt8(ascii: "]"), bytes[index - 2] == UInt8(ascii: "]"), index - 2 >= start {
                return false
            }
            index += 1
        }
        if stack.isEmpty {
            // Outside the root only white space: libxml2 refuses the rest.
            return bytes[start..<index].allSatisfy(Self.isSpace)
        }
        text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        return true
    }

    /// The character of `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` or a character reference at `index`, read past it.
    private mutating func reference() -> Unicode.Scalar? {
        index += 1
        guard let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return nil }
        let body = UnsafeBufferPointer(rebasing: bytes[index..<semicolon])
        index = semicolon + 1
        if body.first == UInt8(ascii: "#") {
            var value: UInt32 = 0
            let hex = body.count > 1 && body[1] == UInt8(ascii: "x")
            let digits = body.dropFirst(hex ? 2 : 1)
            guard !digits.isEmpty else { return nil }
            for digit in digits {
                let number: UInt32
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): number = UInt32(digit - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: number = UInt32(digit - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: number = UInt32(digit - UInt8(ascii: "A") + 10)
                default: return nil
                }
                value = value * (hex ? 16 : 10) + number
                guard value <= 0x10FFFF else { return nil }
            }
            // XML's Char production.
            let isChar = value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
            return isChar ? Unicode.Scalar(value) : nil
        }
        switch String(decoding: body, as: UTF8.self) {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default: return nil
        }
    }

    private mutating func flushText() {
        guard !text.isEmpty else { return }
        stack[stack.count - 1].children.append(.text(String(decoding: text, as: UTF8.self)))
        text.removeAll(keepingCapacity: true)
    }

    /// Markup at a `<`: a start or end tag, a comment, CDATA. Anything else declines.
    private mutating func markup() -> Bool {
        if starts(with: "<!--", at: index) { return comment() }
        if starts(with: "<![CDATA[", at: index) {
            guard !stack.isEmpty else { return false }
            let start = index + 9
            var end = start
            while true {
                guard end + 2 < bytes.count else { return false }
                if bytes[end] == UInt8(ascii: "]"), bytes[end + 1] == UInt8(ascii: "]"), bytes[end + 2] == Self.gt { break }
                if isRefused(at: end) { return false }
                end += 1
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            index = end + 3
            return true
        }
        guard index + 1 < bytes.count else { return false }
        if bytes[index + 1] == Self.slash { return endTag() }
        return startTag()
    }

    private mutating func comment() -> Bool {
        let start = index + 4
        var end = start
        while true {
            guard end + 1 < bytes.count else { return false }
            if bytes[end] == UInt8(ascii: "-"), bytes[end + 1] == UInt8(ascii: "-") { break }
            if isRefused(at: end) { return false }
            end += 1
        }
        // `--` must end the comment, and it cannot end in `-` (`--->`).
        guard end + 2 < bytes.count, bytes[end + 2] == Self.gt, end == start || bytes[end - 1] != UInt8(ascii: "-") else { return false }
        index = end + 3
        guard !stack.isEmpty else { return true }
        flushText()
        stack[stack.count - 1].children.append(.comment(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)))
        return true
    }

    private func isDeclared(_ qualified: String) -> Bool {
        guard let colon = qualified.utf8.firstIndex(of: UInt8(ascii: ":")) else { return true }
        let prefix = String(qualified[..<colon])
        return prefix == "xml" || prefixes.contains(prefix)
    }

    private mutating func startTag() -> Bool {
        guard root == nil, stack.count < XMLTree.maxDepth else { return false }
        index += 1
        guard let elementName = name() else { return false }
        var attributes: [String: String] = [:]
        var locals: [Substring] = []
        var declared: [String] = []
        var value: [UInt8] = []
        while true {
            let spaced = skipSpaces()
            guard index < bytes.count else { return false }
            if bytes[index] == Self.gt || (bytes[index] == Self.slash && index + 1 < bytes.count && bytes[index + 1] == Self.gt) { break }
            guard spaced, let attribute = name(), let quote = valueStart() else { return false }
            value.removeAll(keepingCapacity: true)
            while true {
                guard index < bytes.count else { return false }
                let byte = bytes[index]
                if byte == quote { break }
                if byte == Self.lt || isRefused(at: index) { return false }
                if byte == Self.amp {
                    guard let scalar = reference() else { return false }
                    value.append(contentsOf: UTF8.encode(scalar)!)
                    continue
                }
                // Attribute-value normalization: a literal tab or line feed is a space.
                value.append(byte == 0x09 || byte == 0x0A ? 0x20 : byte)
                index += 1
            }
            index += 1
            guard attributes[attribute] == nil else { return false }
            let text = String(decoding: value, as: UTF8.self)
            if attribute.hasPrefix("xmlns:") {
                let prefix = String(attribute.dropFirst(6))
                guard !text.isEmpty, prefix != "xml", prefix != "xmlns" else { return false }
                declared.append(prefix)
            } else if let colon = attribute.utf8.firstIndex(of: UInt8(ascii: ":")) {
                // Two prefixed attributes with one local name may name the same attribute: left to libxml2.
                let local = attribute[attribute.utf8.index(after: colon)...]
                guard !locals.contains(local) else { return false }
                locals.append(local)
            }
            attributes[attribute] = text
        }
        let selfClosing = bytes[index] == Self.slash
        let position = position(at: index)
        index += selfClosing ? 2 : 1
        prefixes += declared
        // (Foundation's `contains(":")` on a String costs more than the whole element: bytes are searched instead.)
        guard isDeclared(elementName), attributes.keys.allSatisfy({ $0.hasPrefix("xmlns:") || isDeclared($0) }) else { return false }
        // Unprefixed attributes with a local name a prefixed one has: left to libxml2 as well.
        guard locals.isEmpty || !attributes.keys.contains(where: { !$0.utf8.contains(UInt8(ascii: ":")) && locals.contains(Substring($0)) }) else { return false }
        if !stack.isEmpty { flushText() }
        stack.append(Open(name: elementName, attributes: attributes, children: [], position: position, declared: declared))
        if selfClosing { close() }
        return true
    }

    private mutating func endTag() -> Bool {
        index += 2
        guard let elementName = name(), let open = stack.last, open.name == elementName else { return false }
        _ = skipSpaces()
        guard index < bytes.count, bytes[index] == Self.gt else { return false }
        index += 1
        flushText()
        close()
        return true
    }

    private mutating func close() {
        let open = stack.removeLast()
        prefixes.removeLast(open.declared.count)
        let element = XMLTree(name: open.name, attributes: open.attributes, children: open.children, position: open.position)
        if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(.element(element)) }
    }
}
