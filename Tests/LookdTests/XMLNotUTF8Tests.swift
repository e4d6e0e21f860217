import Foundation
import Testing
import StringsFormats

/// Found by FuzzCatalogFormats (issue 27's fuzzing round): an element or attribute name holding a byte that is not
/// UTF-8 (`<str\u{FF}ing>`) in an Android `strings.xml` or an XLIFF ended the process inside FoundationXML (an
/// illegal instruction in `_NSXMLParserStartElementNs`). A document read as UTF-8 must be valid UTF-8: otherwise it
/// is refused as not well-formed, with where the byte is, before the parser sees it. The crashing inputs run in a
/// child process (`lookd import`), so a regression fails the test instead of ending the suite.
@Suite("XML that is not UTF-8: refused, never a crash", .timeLimit(.minutes(10)))
struct XMLNotUTF8Tests {
    static let declaration = Array("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n".utf8)

    /// `lookd import` of `file` (at `name` under a fresh folder; `path` is what is passed) into fresh catalogs.
    static func importing(_ format: String, _ name: String, _ bytes: [UInt8], pathIsFolder: Bool) throws -> (Int32, String) {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/in/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let catalogs = directory.path + "/catalogs"
        try FileManager.default.createDirectory(atPath: catalogs, withIntermediateDirectories: true)
        try Data(#"{"greeting":{"message":"Hello"}}"#.utf8).write(to: URL(fileURLWithPath: catalogs + "/en.json"))
        let (status, _, error) = try runLookd(["import", "--format", format, pathIsFolder ? directory.path + "/in" : file, "--catalogs", catalogs])
        return (status, error)
    }

    @Test("an Android element name with byte 0xFF: exit 2, the byte and its line and column named")
    func androidElementName() throws {
        let bytes = Self.declaration + Array("<resources><str".utf8) + [0xFF] + Array("ing name=\"greeting\">Hallo</string></resources>".utf8)
        let (status, error) = try Self.importing("android", "values/strings.xml", bytes, pathIsFolder: true)
        #expect(status == 2)
        // Line 2; "<resources><str" is 15 characters, so the byte is at column 16.
        #expect(error.contains("byte 0xFF at line 2, column 16 is not UTF-8"), "\(error.prefix(500))")
    }

    @Test("an XLIFF attribute name with byte 0xC3 not followed by a continuation byte: exit 2")
    func xliffAttributeName() throws {
        let bytes = Self.declaration + Array("<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\"><file a".utf8) + [0xC3, 0x28]
            + Array("=\"x\" original=\"a\" source-language=\"en\" target-language=\"de\" datatype=\"plaintext\"><body/></file></xliff>".utf8)
        let (status, error) = try Self.importing("xliff", "de.xliff", bytes, pathIsFolder: false)
        #expect(status == 2)
        #expect(error.contains("byte 0xC3 at line 2, column 75 is not UTF-8"), "\(error.prefix(500))")
    }

    /// Found by FuzzCatalogFormats in its second 10-minute run: a declaration libxml2 reads past as UTF-8 although it
    /// does not name UTF-8 — an encoding that is not an encoding name (a control byte instead of the opening quote,
    /// or inside the quotes), or UTF-16 in a document whose declaration reads as single bytes — skipped the check, and
    /// the element name's 0xFF crashed FoundationXML again.
    @Test("an XLIFF element name with byte 0xFF under a declaration libxml2 reads past as UTF-8: exit 2", arguments: [
        "encoding=\u{2}UTF-8\"", "encoding=\"\u{2}UTF-8\"", "encoding='\u{2}UTF-8'", "encoding=\"UTF-16\"", "encoding=\"utf16\"",
    ])
    func xliffUnderAnEncodingReadAsUTF8(encoding: String) throws {
        let bytes = Array("<?xml version=\"1.0\" \(encoding)?>\n".utf8)
            + Array("<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\"><file original=\"a\" source-language=\"en\" target-language=\"de\" datatype=\"plaintext\"><body><b".utf8)
            + [0xFF] + Array("/></body></file></xliff>".utf8)
        let (status, error) = try Self.importing("xliff", "de.xliff", bytes, pathIsFolder: false)
        #expect(status == 2)
        // Line 2; the text before the byte is 157 characters, so the byte is at column 158.
        #expect(error.contains("byte 0xFF at line 2, column 158 is not UTF-8"), "\(error.prefix(500))")
    }

    /// Found by FuzzCatalogFormats' third run: a document whose `<?xml` is not a declaration libxml2 accepts
    /// (`<?xml versionresources>`) but holds `encoding="utf-7"` before the first `?>` skipped the check too.
    @Test("an Android file whose declaration is malformed before a later encoding=: exit 2, the byte named")
    func androidMalformedDeclaration() throws {
        let bytes = Array("<?xml versionresources>\n<str".utf8) + [0xE4]
            + Array("ng namexml version=\"2.0\" encoding=\"utf-7\"?>\n<resources/>\n".utf8)
        let (status, error) = try Self.importing("android", "values/strings.xml", bytes, pathIsFolder: true)
        #expect(status == 2)
        // Line 2; "<str" is 4 characters, so the byte is at column 5.
        #expect(error.contains("byte 0xE4 at line 2, column 5 is not UTF-8"), "\(error.prefix(500))")
    }

    /// Found by FuzzCatalogFormats' fourth run: libxml2 hands FoundationXML a NULL for the data of `<?name?>`, and
    /// FoundationXML's strlen of it was a SIGSEGV.
    @Test("an XLIFF holding a processing instruction without data (<?xml?>): exit 2 with the reason")
    func emptyProcessingInstruction() throws {
        let bytes = Array("<?xml?>\n<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\"><file original=\"a\" source-language=\"en\" target-language=\"de\" datatype=\"plaintext\"><body/></file></xliff>\n".utf8)
        let (status, error) = try Self.importing("xliff", "de.xliff", bytes, pathIsFolder: false)
        #expect(status == 2)
        #expect(error.contains("processing instruction without data"), "\(error.prefix(500))")
    }

    @Test("a document that declares ISO-8859-1 is still read, its bytes converted")
    func declaredLatin1() throws {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><resources><string name=\"a\">caf".utf8) + [0xE9]
            + Array("</string></resources>".utf8)
        let root = try XMLTree.parse(bytes)
        #expect(root.elements(named: "string").first?.text == "caf\u{E9}")
    }
}
