import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import StringsFormats

/// `XMLTree.parse` reads with libxml2 through CXML, set up as Foundation's `XMLParser` sets it up on Linux. lookd read
/// XML through FoundationXML before; its reading (kept here as `FoundationXMLReading`, the builder lookd had) must give
/// the same trees, and the same error words and positions, for documents of every kind the readers meet.
@Suite(.timeLimit(.minutes(10))) struct XMLReaderTests {
    static let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    static let unit = "<xliff version=\"1.2\"><file source-language=\"en\" target-language=\"de\"><body><trans-unit id=\"a\">"

    static let documents: [[UInt8]] = [
        header + unit + "<source>x</source><target state=\"translated\">y</target><note>n</note></trans-unit></body></file></xliff>\n",
        header + unit + "<source>x</source></trans-unit></body></file>",
        header + unit + "<source>x &foo; y</source></trans-unit></body></file></xliff>\n",
        header + "<!DOCTYPE xliff [<!ENTITY foo \"FOO&amp;\">]>\n" + unit + "<source>x &foo; y &lt; &#x263A;</source><target>t&foo;</target></trans-unit></body></file></xliff>",
        header + "<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///nonexistent/lookd\">]>\n<a>1&e;2</a>",
        header + "<!DOCTYPE a [<!ENTITY e \"E<b>x</b>\">]><a>1&e;2</a>",
        header + "<!DOCTYPE x [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]>\n<a>x &a; y</a>",
        header + "<!DOCTYPE a [<!ATTLIST a d CDATA \"def\">]><a/>",
        header + "<!DOCTYPE a [<!ENTITY % p \"x\">]><a>t</a>",
        header + "<!DOCTYPE a SYSTEM \"http://example.invalid/a.dtd\"><a>t</a>",
        header + unit.replacingOccurrences(of: "id=\"a\"", with: "id=\"a\" id=\"b\"") + "<source>x</source></trans-unit></body></file></xliff>",
        header + unit + "<source>x < y</source></trans-unit></body></file></xliff>",
        header + unit + "<source>x</sourc></trans-unit></body></file></xliff>",
        header + unit + "<source>x &#0; y</source></trans-unit></body></file></xliff>",
        header + "<a>x</a>\n<extra/>\n",
        header + "<a xmlns=\"u\" xmlns:p=\"v\" p:c=\"1\" d=\"\"><p:b>t<![CDATA[<b>&amp;]]>c<!-- note --> d</p:b>  t </a>",
        header + "<a>text<!--c-->more&#65;&amp;z\r\nline\rend</a><!--after-->",
        header + "<?pi some data?><a><?pi2 d?>x</a>",
        "\u{FEFF}" + header + "<a>bom</a>",
        "<a>no declaration</a>",
        "<a id=\"a\tb\nc  d\">x</a>",
        "<a>\u{1}</a>",
        "<a>&undefined;</a>",
        "<a><b></a>",
        "   <a/>   ",
        "abcd",
        "abc",
        "",
        String(repeating: "<e>", count: 100) + String(repeating: "</e>", count: 100),
        String(repeating: "<e>", count: 101) + String(repeating: "</e>", count: 101),
        "<r>\n  <a:b xmlns:a=\"u\">x</a:b>\n  <c/>\n</r>",
    ].map { Array($0.utf8) } + [
        Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>Gr".utf8) + [0xFC, 0xDF] + Array("e</a>".utf8),
    ]

    @Test(arguments: documents) func readsAsFoundationXMLReads(_ bytes: [UInt8]) {
        expectSameReading(bytes)
    }

    /// Every XML file the fixtures hold (Android resources, XLIFF, Xcode exports).
    static func fixtureXMLFiles() -> [URL] {
        let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
        return FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
            .filter { ["xml", "xliff"].contains($0.pathExtension) }
    }

    @Test func fixturesReadAsFoundationXMLReadsThem() throws {
        let files = Self.fixtureXMLFiles()
        #expect(files.count > 20)
        for file in files { expectSameReading([UInt8](try Data(contentsOf: file)), file.lastPathComponent) }
    }

    /// A tree worked out by hand: namespace declarations are attributes, a prefixed name keeps its prefix, character
    /// references and CDATA join the text around them, a comment is a child of its own.
    @Test func treeByHand() throws {
        let root = try XMLTree.parse(Array("<a x=\"1\" xmlns:p=\"u\"><p:b>t&amp;u<![CDATA[<c>]]></p:b><!--k-->z</a>".utf8))
        #expect(root.name == "a")
        #expect(root.attributes == ["x": "1", "xmlns:p": "u"])
        #expect(root.position.line == 1)
        #expect(root.children.count == 3)
        #expect(root.elements.map(\.name) == ["p:b"])
        #expect(root.elements.first?.children == [.text("t&u<c>")])
        #expect(root.children.dropFirst() == [.comment("k"), .text("z")])
        #expect(root.text == "t&u<c>z")
    }

    /// A notation declaration without a public id ended the process inside FoundationXML (`_NSXMLParserNotationDecl`
    /// takes the length of the missing id), so it cannot be compared: libxml2 reads it and the element after it.
    @Test func notationDeclarationIsRead() throws {
        let root = try XMLTree.parse(Array((Self.header + "<!DOCTYPE a [<!NOTATION n SYSTEM \"x\"><!ENTITY u SYSTEM \"y\" NDATA n>]><a>t</a>").utf8))
        #expect(root.name == "a")
        #expect(root.children == [.text("t")])
    }

    /// An external entity is never loaded, even when the file it names exists and is readable.
    @Test func externalEntitiesAreNotLoaded() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lookd-xml-entity-\(getpid()).txt")
        try Data("SECRET-CONTENT".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let document = "<!DOCTYPE a [<!ENTITY e SYSTEM \"\(file.absoluteString)\">]><a>1&e;2</a>"
        let root = try XMLTree.parse(Array(document.utf8))
        #expect(!root.text.contains("SECRET"))
        expectSameReading(Array(document.utf8))
    }

    private func expectSameReading(_ bytes: [UInt8], _ name: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = FoundationXMLReading.parse(bytes)
        let actual: Result<XMLTree, ConversionError>
        do { actual = .success(try XMLTree.parse(bytes)) } catch { actual = .failure(error as! ConversionError) }
        switch (expected, actual) {
        case (.success(let expected), .success(let actual)):
            #expect(actual == expected, "\(name) \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        case (.failure(let expected), .failure(let actual)):
            #expect(actual.problems.map(\.reason) == expected.problems.map(\.reason), "\(name)", sourceLocation: sourceLocation)
            #expect(actual.problems.map(\.position) == expected.problems.map(\.position), "\(name)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(name): FoundationXML \(expected), libxml2 \(actual)", sourceLocation: sourceLocation)
        }
    }
}

/// What `XMLTree.parse` was before it read with libxml2 itself: Foundation's `XMLParser` and a delegate building the
/// tree. Kept as the reference the reading is compared with.
private enum FoundationXMLReading {
    static func parse(_ bytes: [UInt8]) -> Result<XMLTree, ConversionError> {
        if let invalid = XMLEncodingCheck.firstInvalidByte(bytes) {
            let hex = String(invalid.byte, radix: 16, uppercase: true)
            return .failure(ConversionError([.init(key: nil, reason: "not well-formed XML: byte 0x\(hex) at line \(invalid.position.line), column \(invalid.position.column) is not UTF-8", kind: .syntax,
                                                   position: invalid.position)]))
        }
        if let position = XMLEmptyInstructionCheck.firstEmptyInstruction(bytes) {
            return .failure(ConversionError([.init(key: nil, reason: "a processing instruction without data (<?name?>) is not supported", kind: .syntax,
                                                   position: position)]))
        }
        let parser = XMLParser(data: Data(bytes))
        let builder = Builder()
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let position = builder.tooDeep {
            return .failure(ConversionError([.init(key: nil, reason: "elements nested deeper than \(XMLTree.maxDepth) levels", kind: .syntax, position: position)]))
        }
        guard parsed, let root = builder.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed"
            return .failure(ConversionError([.init(key: nil, reason: "not well-formed XML: \(reason)", kind: .syntax,
                                                   position: builder.errorPosition ?? FilePosition(line: max(1, parser.lineNumber), column: max(1, parser.columnNumber)))]))
        }
        return .success(root)
    }

    private final class Builder: NSObject, XMLParserDelegate {
        struct Open {
            var name: String
            var attributes: [String: String]
            var children: [XMLTree.Child]
            var position: FilePosition
        }

        var stack: [Open] = []
        var root: XMLTree?
        var errorPosition: FilePosition?
        var tooDeep: FilePosition?

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if errorPosition == nil { errorPosition = FilePosition(line: max(1, parser.lineNumber), column: max(1, parser.columnNumber)) }
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            guard tooDeep == nil else { return }
            guard stack.count < XMLTree.maxDepth else {
                if tooDeep == nil { tooDeep = FilePosition(line: max(1, parser.lineNumber), column: max(1, parser.columnNumber)) }
                stack.removeAll()
                parser.abortParsing()
                return
            }
            stack.append(Open(name: elementName, attributes: attributes, children: [],
                              position: FilePosition(line: parser.lineNumber, column: max(1, parser.columnNumber))))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let open = stack.popLast() else { return }
            let element = XMLTree(name: open.name, attributes: open.attributes, children: open.children, position: open.position)
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(.element(element)) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { appendText(string) }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { appendText(String(decoding: CDATABlock, as: UTF8.self)) }

        func parser(_ parser: XMLParser, foundComment comment: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].children.append(.comment(comment))
        }

        private func appendText(_ string: String) {
            guard !stack.isEmpty else { return }
            if case .text(let previous)? = stack[stack.count - 1].children.last {
                stack[stack.count - 1].children[stack[stack.count - 1].children.count - 1] = .text(previous + string)
            } else {
                stack[stack.count - 1].children.append(.text(string))
            }
        }
    }
}
