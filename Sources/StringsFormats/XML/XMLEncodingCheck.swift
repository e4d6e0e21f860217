/// The byte check made before an XML document reaches Foundation's `XMLParser`: a document read as UTF-8 must be
/// valid UTF-8. FoundationXML (libxml2 underneath) hands an element or attribute name containing a byte that is not
/// UTF-8 to Swift as a string it force-unwraps, which ends the process (found by FuzzCatalogFormats:
/// `<str\u{FF}ing>` in an Android `strings.xml`). Pure functions; thread-safe.
enum XMLEncodingCheck {
    /// Where the first byte that is not UTF-8 starts — line and column (in Unicode scalars) — and its value, when
    /// the document is read as UTF-8: it has no UTF-16 byte order mark, and its XML declaration names no encoding,
    /// names UTF-8 or UTF-16, or names one that is not an encoding name (XML 1.0 §4.3.3: `[A-Za-z][A-Za-z0-9._-]*`
    /// between matching quotes). libxml2 reads all of those as UTF-8: it reports a malformed declaration and reads on,
    /// and it ignores a UTF-16 declaration in a document whose declaration reads as single bytes (both crashed
    /// FoundationXML through FuzzCatalogFormats: `encoding=\u{2}UTF-8"`, `encoding="UTF-16"`). Nil when every byte
    /// is valid or the document names another encoding by its name (libxml2 converts those, or refuses them).
    static func firstInvalidByte(_ bytes: [UInt8]) -> (position: FilePosition, byte: UInt8)? {
        guard readAsUTF8(bytes) else { return nil }
        // The standard library's validation first; lines and columns are counted only for a document that fails it
        // (counting them for every scalar was 1.8% of the `lint-xliff` bench's lint time).
        guard String(validating: bytes, as: UTF8.self) == nil else { return nil }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0, line = 1, column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1 && encoded.first == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                offset += encoded.count
            case .error:
                return (FilePosition(line: line, column: column), bytes[offset])
            case .emptyInput:
                return nil
            }
        }
    }

    /// Whether libxml2 reads the document as UTF-8 (see `firstInvalidByte`).
    private static func readAsUTF8(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return false }
        let head = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3).prefix(256)) : Array(bytes.prefix(256))
        guard head.starts(with: Array("<?xml".utf8)), let end = head.firstRange(of: Array("?>".utf8))?.lowerBound,
              let name = head[..<end].firstRange(of: Array("encoding".utf8)) else { return true }
        guard let encoding = encodingName(head[name.upperBound..<end]) else { return true }
        return ["utf-8", "utf8", "utf-16", "utf16"].contains(encoding.lowercased())
    }

    /// The encoding name of `Eq EncName` with its quotes (`= "ISO-8859-1"`), or nil when `text` does not start with one.
    private static func encodingName(_ text: ArraySlice<UInt8>) -> String? {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        var rest = text.drop(while: isSpace)
        guard rest.first == UInt8(ascii: "=") else { return nil }
        rest = rest.dropFirst().drop(while: isSpace)
        guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        let name = rest.dropFirst().prefix { $0 != quote }
        let isLetter = { (byte: UInt8) in (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
        let isNameByte = { (byte: UInt8) in
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || Array("._-".utf8).contains(byte)
        }
        guard name.endIndex < rest.endIndex, let first = name.first, isLetter(first), name.allSatisfy(isNameByte) else { return nil }
        return String(decoding: name, as: UTF8.self)
    }
}
