import Foundation
import Testing
@testable import StringsFormats

/// `XMLEventIndex` (how XLIFF is read) must answer as the `XMLTree` built from the same events: the same root, names,
/// attributes, positions, child elements and text, for every element, on the documents `XMLReaderTests` reads and
/// every XML fixture.
@Suite(.timeLimit(.minutes(10))) struct XMLEventIndexTests {
    @Test(arguments: XMLReaderTests.documents) func answersAsTheTree(_ bytes: [UInt8]) {
        expectSameAnswers(bytes)
    }

    @Test func fixturesAnswerAsTheirTrees() throws {
        let files = XMLReaderTests.fixtureXMLFiles()
        #expect(files.count > 20)
        for file in files { expectSameAnswers([UInt8](try Data(contentsOf: file)), file.lastPathComponent) }
    }

    /// An XLIFF worked out by hand: text below `<source>` joins across a comment and an inline element, a unit with an
    /// empty id and empty source is left out, positions are the units' lines, `maxwidth` is a number.
    @Test func xliffByHand() throws {
        let text = """
            <xliff version="1.2"><file original="Localizable.xcstrings" source-language="en" target-language="de">
            <header><tool tool-id="com.apple.dt.xcode"/></header><body>
            <trans-unit id=""><source></source></trans-unit>
            <trans-unit id="a" maxwidth="12"><source>x<!--c--><g>y</g>z</source>
            <target state="translated">t</target><note>n</note></trans-unit>
            <trans-unit id="b"><source>s</source></trans-unit>
            </body></file></xliff>
            """
        let document = try XLIFFDocument(bytes: Array(text.utf8))
        #expect(document.targetLanguage == "de")
        #expect(document.files.map(\.isPrintf) == [true])
        #expect(document.units.map(\.id) == ["a", "b"])
        #expect(document.units.map(\.source) == ["xyz", "s"])
        #expect(document.units.map(\.target) == ["t", nil])
        #expect(document.units.map(\.state) == ["translated", nil])
        #expect(document.units.map(\.note) == ["n", nil])
        #expect(document.units.map(\.maxWidth) == [12, nil])
        #expect(document.units.map(\.position.line) == [4, 6])
    }

    /// The XLIFF reader's errors, in document order, as before: a unit without an id names its line.
    @Test func xliffErrors() {
        let missingID = "<xliff version=\"1.2\"><file source-language=\"en\" target-language=\"de\"><body>\n<trans-unit><source>s</source></trans-unit></body></file></xliff>"
        #expect(throws: ConversionError.self) { try XLIFFDocument(bytes: Array(missingID.utf8)) }
        do {
            _ = try XLIFFDocument(bytes: Array(missingID.utf8))
        } catch let error as ConversionError {
            #expect(error.problems.map(\.reason) == ["<trans-unit> without an id at line 2"])
        } catch {
            Issue.record("\(error)")
        }
        do {
            _ = try XLIFFDocument(bytes: Array("<xliff version=\"2.0\"/>".utf8))
        } catch let error as ConversionError {
            #expect(error.problems.map(\.reason) == ["not an XLIFF 1.2 document (root <xliff> version 2.0)"])
        } catch {
            Issue.record("\(error)")
        }
    }

    /// The parser's counts size the index's tables; by hand: elements a, b and c, texts "x", "y" (a comment ends
    /// it) and "z", and the whitespace before the root is outside it (not a record).
    @Test func eventsCountElementsAndTexts() throws {
        let counts = try XMLTree.withEvents(Array("\n<a><b>x</b>y<!--c--><c/>z</a>".utf8)) { events in
            (events.elementCount, events.textCount)
        }
        #expect(counts.0 == 3)
        #expect(counts.1 == 3)
    }

    private func expectSameAnswers(_ bytes: [UInt8], _ name: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        let tree = try? XMLTree.parse(bytes)
        let answered: Bool? = try? XMLTree.withEvents(bytes) { events -> Bool? in
            let index = XMLEventIndex(events)
            guard let root = index.root else { return nil }
            guard let tree else { return false }
            return same(index, root, tree, name, sourceLocation)
        }
        // Both readings find a root, or neither does.
        #expect((tree == nil) == (answered == nil), "\(name)", sourceLocation: sourceLocation)
        if tree != nil { #expect(answered == true, "\(name)", sourceLocation: sourceLocation) }
    }

    private func same(_ index: XMLEventIndex, _ element: Int, _ tree: XMLTree, _ name: String, _ sourceLocation: SourceLocation) -> Bool {
        var same = index.name(element) == tree.name && index.elements[element].position == tree.position && index.text(element) == tree.text
        for (key, value) in tree.attributes { same = same && index.attribute(element, key) == value }
        same = same && index.attribute(element, "not-an-attribute-\(tree.attributes.count)") == nil
        let children = index.children(element)
        same = same && children.count == tree.elements.count
        for (child, subtree) in zip(children, tree.elements) { same = self.same(index, child, subtree, name, sourceLocation) && same }
        #expect(same, "\(name) <\(tree.name)>", sourceLocation: sourceLocation)
        return same
    }
}
