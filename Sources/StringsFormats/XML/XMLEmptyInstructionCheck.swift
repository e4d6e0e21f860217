#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The check made before a document reaches the XML parser for processing instructions without data (`<?name?>`):
/// libxml2 hands FoundationXML, which lookd read XML with until 2 Dec 2026, a NULL for their data and FoundationXML
/// takes its length, which ends the process (found by FuzzCatalogFormats: `<?xml?>` at the start of an XLIFF). Such a
/// document is refused instead; lookd's own libxml2 reader (`CXML`) would read it, and it is still refused so that
/// the same documents are read as before.
/// The scan is of the bytes, so `<?name?>` inside a comment or CDATA section is refused too; no Android or XLIFF file
/// seen uses either. Pure functions; thread-safe.
enum XMLEmptyInstructionCheck {
    /// Where the first `<?name?>` starts — line and column (in Unicode scalars) — or nil when there is none.
    static func firstEmptyInstruction(_ bytes: [UInt8]) -> FilePosition? {
        // Each `?` found by the C library's `memchr` (vectorised), then the `<` before it tested: `?` is rare in a
        // document, `<` starts every tag. Data's generic `firstRange(of:)` used here first was 21% of the `lint-xliff`
        // bench's samples (perf, 2 Dec 2026); a plain loop over the bytes took 4.8 of the 350 million instructions
        // of `lookd lint` on one bench file (callgrind, 2 Dec 2026).
        let question = UInt8(ascii: "?")
        var from = 1 // a `?` at 0 has no `<` before it
        while from < bytes.count {
            let found = bytes.withUnsafeBufferPointer { buffer in
                memchr(buffer.baseAddress! + from, Int32(question), buffer.count - from)
                    .map { UnsafeRawPointer(buffer.baseAddress!).distance(to: UnsafeRawPointer($0)) }
            }
            guard let found else { return nil }
            from = found + 1
            let index = found - 1
            guard bytes[index] == UInt8(ascii: "<") else { continue }
            var end = index + 2
            while end < bytes.endIndex, !isNameEnd(bytes[end]) { end += 1 }
            guard end > index + 2, end + 1 < bytes.endIndex, bytes[end] == question, bytes[end + 1] == UInt8(ascii: ">") else { continue }
            let lineStart = bytes[..<index].lastIndex(of: 0x0A).map { $0 + 1 } ?? bytes.startIndex
            let line = 1 + bytes[..<index].count { $0 == 0x0A }
            let column = 1 + String(decoding: bytes[lineStart..<index], as: UTF8.self).unicodeScalars.count
            return FilePosition(line: line, column: column)
        }
        return nil
    }

    /// Whether `byte` ends an instruction's name: `?` or XML white space.
    private static func isNameEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "?") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
