/// Where each child element of a document's root starts and ends in the file's bytes (`<string name="a">…</string>`
/// inside `<resources>`), with the comment right before it — so an export can keep a file's bytes and replace,
/// remove or add single resources. For well-formed XML (read it with `XMLTree.parse` first): comments, CDATA,
/// processing instructions and quoted `>` in attributes are skipped correctly; anything else is not validated.
/// Pure.
struct XMLTopLevelSpans {
    struct Span {
        /// The element's name (`string`, `plurals`, `string-array`, …).
        let element: String
        /// Its `name` attribute, entities decoded; nil without one.
        let name: String?
        /// From `<` to the end of the end tag (or of `/>`).
        let range: Range<Int>
        /// A comment before it with only whitespace between, from `<!--` to `-->`.
        let comment: Range<Int>?
    }

    /// The root's children in file order.
    let spans: [Span]
    /// Where the root's end tag starts (`</resources>`), the file's length when not found.
    let rootEnd: Int
    /// The first byte of text between the root's children other than whitespace (aapt2 refuses it), if any.
    let firstText: Int?

    init(_ bytes: [UInt8]) {
        var spans: [Span] = []
        var index = 0
        var depth = 0
        var lastComment: Range<Int>?
        var rootEnd = bytes.count
        var open: (element: String, name: String?, start: Int, comment: Range<Int>?)?
        var firstText: Int?
        func starts(_ text: StaticString, at position: Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            return text.withUTF8Buffer { pattern in (0..<count).allSatisfy { bytes[position + $0] == pattern[$0] } }
        }
        func find(_ text: StaticString, from position: Int) -> Int {
            var at = position
            while at < bytes.count, !starts(text, at: at) { at += 1 }
            return min(at + text.utf8CodeUnitCount, bytes.count)
        }
        scan: while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                if depth == 1, !Self.isSpace(bytes[index]) {
                    lastComment = nil
                    if open == nil, firstText == nil { firstText = index }
                }
                index += 1
                continue
            }
            if starts("<!--", at: index) {
                let end = find("-->", from: index + 4)
                if depth == 1 { lastComment = index..<end }
                index = end
            } else if starts("<![CDATA[", at: index) {
                index = find("]]>", from: index + 9)
            } else if starts("<?", at: index) || starts("<!", at: index) {
                index = find(">", from: index + 2)
            } else if starts("</", at: index) {
                let end = find(">", from: index + 2)
                depth -= 1
                if depth == 0 {
                    rootEnd = index
                    break scan
                }
                if depth == 1, let element = open {
                    spans.append(Span(element: element.element, name: element.name, range: element.start..<end, comment: element.comment))
                    open = nil
                    lastComment = nil
                }
                index = end
            } else {
                let (end, selfClosing) = Self.tagEnd(bytes, from: index)
                let tag = Array(bytes[index..<end])
                if depth == 1 {
                    let element = Self.tagName(tag)
                    let name = Self.attribute("name", in: tag)
                    if selfClosing {
                        spans.append(Span(element: element, name: name, range: index..<end, comment: lastComment))
                        lastComment = nil
                    } else {
                        open = (element, name, index, lastComment)
                    }
                }
                if !selfClosing { depth += 1 }
                index = end
            }
        }
        self.spans = spans
        self.rootEnd = rootEnd
        self.firstText = firstText
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The end of a start tag beginning at `start` (after its `>`), skipping quoted attribute values.
    private static func tagEnd(_ bytes: [UInt8], from start: Int) -> (end: Int, selfClosing: Bool) {
        var index = start + 1
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return (index + 1, bytes[index - 1] == UInt8(ascii: "/"))
            }
            index += 1
        }
        return (bytes.count, false)
    }

    private static func tagName(_ tag: [UInt8]) -> String {
        String(decoding: tag.dropFirst().prefix { !isSpace($0) && $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "/") }, as: UTF8.self)
    }

    /// The value of attribute `name` in a start tag, with the five predefined entities and character references decoded.
    static func attribute(_ name: String, in tag: [UInt8]) -> String? {
        let text = String(decoding: tag, as: UTF8.self)
        var rest = Substring(text)
        while let range = rest.range(of: name) {
            let before = rest[..<range.lowerBound].last
            var after = rest[range.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            rest = rest[range.upperBound...]
            guard before.map({ $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) == true, after.first == "=" else { continue }
            after = after.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard let quote = after.first, quote == "\"" || quote == "'" else { return nil }
            let value = after.dropFirst().prefix { $0 != quote }
            return XMLEscaping.unescape(String(value))
        }
        return nil
    }
}
