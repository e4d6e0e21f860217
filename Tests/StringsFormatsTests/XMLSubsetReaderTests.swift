import Foundation
import Testing
@testable import StringsFormats

/// `XMLSubsetReader` must give exactly the tree Foundation's `XMLParser` gives (names, attributes, text, comments,
/// element positions), and decline what it does not read so that `XMLParser` decides. The reference is
/// `XMLParser` itself, run on the same bytes.
@Suite(.timeLimit(.minutes(5))) struct XMLSubsetReaderTests {
    /// Every XML and XLIFF file among the fixtures (real-world patterns included) is read by the subset reader,
    /// to the same tree.
    @Test func fixturesGiveXMLParsersTree() throws {
        let root = CatalogFixtures.fixture("")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
            .filter { ["xml", "xliff", "xlf"].contains($0.pathExtension) }
        #expect(files.count >= 20)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            guard let reference = try? XMLTree.parseWithXMLParser(bytes) else { continue }
            let fast = XMLSubsetReader.parse(bytes)
            #expect(fast != nil, "declined \(file.lastPathComponent)")
            #expect(fast == reference, "\(file.path)")
        }
    }

    static let sameTree: [String] = [
        "<a>x</a>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>\n  <b x=\"1\" y='2'>t</b>\n</a>\n",
        "<?xml version='1.0' encoding='utf-8' standalone='yes'?><a/>",
        "<?xml version=\"1.0\"?>\n<!-- before -->\n<a><!-- in --></a>\n<!-- after -->\n",
        "<a>&lt;b&gt; &amp; &quot;q&quot; &apos;s&apos; &#233; &#xE9; &#x1F600; &#10;</a>",
        "<a t=\"&lt;&amp;&quot;&apos;&#10;&#x9;&#233;\" u='a\"b'>x</a>",
        "<a v=\"line\none\ttab\">x</a>",
        "<a>before<![CDATA[<b>bold</b> & ]]>after</a>",
        "<a>one<!-- c -->two<b/>three</a>",
        "<resources xmlns:tools=\"http://schemas.android.com/tools\" xmlns:xliff=\"urn:oasis:names:tc:xliff:document:1.2\" tools:ignore=\"MissingTranslation\">\n  <string name=\"a\">Hi <xliff:g id=\"name\" example=\"Bob\">%1$s</xliff:g>!</string>\n</resources>",
        "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:1.2\" version=\"1.2\"><file><trans-unit id=\"é\" xml:space=\"preserve\"><source>Grüße, 世界 🌍</source></trans-unit></file></xliff>",
        "<a\n  x=\"1\"\n  y=\"ü\"\n  >\n<b\tz=\"2\"   /><c  ></c  ></a>",
        "<a>]] > ]</a>",
        "<a>\u{85}\u{2028} tab\tend</a>",
        "<a><b><c><d>deep</d></c></b>tail &amp; more</a>",
        "<a x=\"\"></a>",
    ]

    @Test(arguments: sameTree) func craftedDocumentsGiveXMLParsersTree(_ document: String) throws {
        let bytes = Array(document.utf8)
        let reference = try XMLTree.parseWithXMLParser(bytes)
        let fast = XMLSubsetReader.parse(bytes)
        #expect(fast != nil)
        #expect(fast == reference)
    }

    /// Positions counted by hand: libxml2 reports an element at its start tag's `>` (or the `/` of `/>`), the
    /// column in Unicode scalars.
    @Test func positionsAreTheStartTagsEnd() throws {
        // Line 2 `  <b x="é">`: `>` is the 11th scalar; line 3 ` y="日本"/>`: `/` is the 8th.
        let tree = try #require(XMLSubsetReader.parse(Array("<a>\n  <b x=\"é\">t</b><c\n y=\"日本\"/></a>".utf8)))
        #expect(tree.position == FilePosition(line: 1, column: 3))
        #expect(tree.elements.map(\.position) == [FilePosition(line: 2, column: 11), FilePosition(line: 3, column: 8)])
    }

    static let declined: [String] = [
        "\u{FEFF}<a/>",
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>",
        "<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>",
        "<a>&nbsp;</a>",
        "<a>line\r\nbreak</a>",
        "<a><?pi data?></a>",
        "<p:a>x</p:a>",
        "<a p:x=\"1\"/>",
        "<a>]]></a>",
        "<a><b></a></b>",
        "<a x=\"1\" x=\"2\"/>",
        "<a x=\"1\"y=\"2\"/>",
        "<a>\u{1}</a>",
        "<a>&#0;</a>",
        "<a/><b/>",
        "<a>x</a>text",
        "<a><!-- a -- b --></a>",
        "<a x=\"<\"/>",
        "<a>",
        "<ä/>",
    ]

    /// Outside the subset the reader declines, and `XMLTree.parse` gives `XMLParser`'s tree or error.
    @Test(arguments: declined) func documentsOutsideTheSubsetAreDeclined(_ document: String) {
        let bytes = Array(document.utf8)
        #expect(XMLSubsetReader.parse(bytes) == nil)
        let viaParse = Result { try XMLTree.parse(bytes) }
        let reference = Result { try XMLTree.parseWithXMLParser(bytes) }
        switch (viaParse, reference) {
        case (.success(let tree), .success(let expected)): #expect(tree == expected)
        case (.failure(let error), .failure(let expected)): #expect("\(error)" == "\(expected)")
        default: Issue.record("XMLTree.parse and XMLParser disagree on \(document.debugDescription)")
        }
    }

    /// Nesting deeper than `XMLTree.maxDepth` is left to `XMLParser`'s path, which refuses it with its position.
    @Test func tooDeepIsDeclined() {
        let depth = XMLTree.maxDepth + 1
        let bytes = Array((String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)).utf8)
        #expect(XMLSubsetReader.parse(bytes) == nil)
        #expect(throws: ConversionError.self) { try XMLTree.parse(bytes) }
    }
}
