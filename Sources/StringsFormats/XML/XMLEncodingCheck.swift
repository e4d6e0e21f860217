/// The byte check made before an XML document reaches Foundation's `XMLParser`: a document read as UTF-8 must be
/// valid UTF-8. FoundationXML (libxml2 underneath) hands an element or attribute name containing a byte that is not
/// UTF-8 to Swift as a string it force-unwraps, which ends the process (found by FuzzCatalogFormats:
/// `<str\u{FF}ing>` in an Android `strings.xml`). Pure functions; thread-safe.
enum XMLEncodingCheck {
    /// Where the first byte that is not UTF-8 starts — line and column (in Unicode scalars) — and its value, when
    /// the document is read as UTF-8: it has no UTF-16 byte order mark and its XML declaration names no encoding, or
    /// names UTF-8. Nil when every byte is valid or the document declares another encoding (libxml2 converts those).
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
        guard head.starts(with: Array("<?xml".utf8)), let end = head.firstRange(of: Array("?>".utf8))?.lowerBound else { return true }
        let declaration = String(decoding: head[..<end], as: UTF8.self).lowercased()
        guard let name = declaration.range(of: "encoding") else { return true }
        let value = declaration[name.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
            .prefix { $0 != "\"" && $0 != "'" && $0 != " " }
        return value == "utf-8" || value == "utf8"
    }
}
