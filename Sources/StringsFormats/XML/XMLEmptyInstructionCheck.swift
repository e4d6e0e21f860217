/// The check made before a document reaches Foundation's `XMLParser` for processing instructions without data
/// (`<?name?>`): libxml2 hands FoundationXML a NULL for their data and FoundationXML takes its length, which ends the
/// process (found by FuzzCatalogFormats: `<?xml?>` at the start of an XLIFF). Such a document is refused instead.
/// The scan is of the bytes, so `<?name?>` inside a comment or CDATA section is refused too; no Android or XLIFF file
/// seen uses either. Pure functions; thread-safe.
enum XMLEmptyInstructionCheck {
    /// Where the first `<?name?>` starts — line and column (in Unicode scalars) — or nil when there is none.
    static func firstEmptyInstruction(_ bytes: [UInt8]) -> FilePosition? {
        var start = bytes.startIndex
        while let found = bytes[start...].firstRange(of: Array("<?".utf8)) {
            let name = bytes[found.upperBound...].prefix { byte in
                byte != UInt8(ascii: "?") && byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
            }
            if !name.isEmpty, bytes[name.endIndex...].starts(with: Array("?>".utf8)) {
                let lineStart = bytes[..<found.lowerBound].lastIndex(of: 0x0A).map { $0 + 1 } ?? bytes.startIndex
                let line = 1 + bytes[..<found.lowerBound].count { $0 == 0x0A }
                let column = 1 + String(decoding: bytes[lineStart..<found.lowerBound], as: UTF8.self).unicodeScalars.count
                return FilePosition(line: line, column: column)
            }
            start = found.upperBound
        }
        return nil
    }
}
