/// The byte check made before an XML document reaches the XML parser: a document read as UTF-8 must be valid UTF-8.
/// FoundationXML (libxml2 underneath), which lookd read XML with until 2 Dec 2026, hands an element or attribute
/// name containing a byte that is not UTF-8 to Swift as a string it force-unwraps, which ends the process (found by
/// FuzzCatalogFormats: `<str\u{FF}ing>` in an Android `strings.xml`). The check stays with lookd's own libxml2 reader
/// (`CXML`): the same documents are refused as before, with a message naming the byte and where it is. Pure
/// functions; thread-safe.
enum XMLEncodingCheck {
    /// Where the first byte that is not UTF-8 starts — line and column (in Unicode scalars) — and its value, when
    /// the document is read as UTF-8: it has no UTF-16 byte order mark, and it has no well-formed XML declaration
    /// naming an encoding other than UTF-8 and UTF-16 (see `readAsUTF8`). libxml2 reads all of those as UTF-8: it
    /// reports a malformed declaration and reads on, and it ignores a UTF-16 declaration in a document whose
    /// declaration reads as single bytes (each crashed FoundationXML through FuzzCatalogFormats:
    /// `encoding=\u{2}UTF-8"`, `encoding="UTF-16"`, `<?xml versionresources>` … `encoding="utf-7"?>`). Nil when every
    /// byte is valid or the document declares another encoding by its name (libxml2 converts those, or refuses them).
    static func firstInvalidByte(_ bytes: [UInt8]) -> (position: FilePosition, byte: UInt8)? {
        guard readAsUTF8(bytes) else { return nil }
        // The standard library's validation first; lines and columns are counted only for a document that fails it
        // (counting them for every scalar was 1.8% of the `lint-xliff` bench's lint time).
        guard !isValidUTF8(bytes) else { return nil }
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

    /// Whether `bytes` are well-formed UTF-8, as `String(validating:as:)` decides, with ASCII skipped eight bytes at a
    /// time: a byte below 0x80 is a whole scalar and never part of a longer one, so the bytes are valid exactly when
    /// each run of bytes from 0x80 up is, and only those runs are handed to the standard library. `String(validating:)`
    /// over the whole document took 8.0 of the 350 million instructions of `lookd lint` on one `lint-xliff` bench
    /// file (callgrind, 2 Dec 2026; it validates a byte at a time and copies the document into a string).
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            let count = raw.count
            var index = 0
            while index < count {
                while index + 8 <= count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { index += 8 }
                while index < count, raw[index] < 0x80 { index += 1 }
                guard index < count else { return true }
                var end = index + 1
                while end < count, raw[end] >= 0x80 { end += 1 }
                guard String(validating: UnsafeRawBufferPointer(rebasing: raw[index..<end]).assumingMemoryBound(to: UInt8.self), as: UTF8.self) != nil else {
                    return false
                }
                index = end
            }
            return true
        }
    }

    /// Whether libxml2 reads the document as UTF-8 (see `firstInvalidByte`): anything but a well-formed declaration
    /// (XML 1.0 §2.8, §4.3.3: `<?xml`, version 1.x, then the encoding, each quoted) naming neither UTF-8 nor UTF-16.
    private static func readAsUTF8(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return false }
        var rest = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3).prefix(256) : bytes.prefix(256)
        guard rest.starts(with: Array("<?xml".utf8)) else { return true }
        rest = rest.dropFirst(5)
        guard let version = pseudoAttribute("version", &rest), version.starts(with: "1."), version.count > 2,
              version.dropFirst(2).allSatisfy(\.isASCIIDigit),
              let encoding = pseudoAttribute("encoding", &rest), isEncodingName(encoding) else { return true }
        return ["utf-8", "utf8", "utf-16", "utf16"].contains(encoding.lowercased())
    }

    /// `S name Eq "value"` (or single quotes) at the start of `rest`: its value, `rest` moved past it; nil otherwise.
    private static func pseudoAttribute(_ name: String, _ rest: inout ArraySlice<UInt8>) -> String? {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = rest.first, isSpace(first) else { return nil }
        var text = rest.drop(while: isSpace)
        guard text.starts(with: Array(name.utf8)) else { return nil }
        text = text.dropFirst(name.utf8.count).drop(while: isSpace)
        guard text.first == UInt8(ascii: "=") else { return nil }
        text = text.dropFirst().drop(while: isSpace)
        guard let quote = text.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        let value = text.dropFirst().prefix { $0 != quote }
        guard value.endIndex < text.endIndex else { return nil }
        rest = text[(value.endIndex + 1)...]
        return String(decoding: value, as: UTF8.self)
    }

    /// XML 1.0's EncName: `[A-Za-z] ([A-Za-z0-9._] | '-')*`.
    private static func isEncodingName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
