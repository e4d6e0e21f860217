import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A parsed XML element with its children in order and where it starts — enough for Android resources and
/// XLIFF. Read with Foundation's `XMLParser` (FoundationXML on Linux, libxml2 underneath; external entities
/// are not resolved). A value type.
public struct XMLTree: Sendable, Hashable {
    public enum Child: Sendable, Hashable {
        case element(XMLTree)
        case text(String)
        case comment(String)
    }

    public let name: String
    public let attributes: [String: String]
    public var children: [Child]
    /// Where the parser reported the element (libxml2 reports the end of the start tag).
    public let position: FilePosition

    public var elements: [XMLTree] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    public func elements(named name: String) -> [XMLTree] { elements.filter { $0.name == name } }

    /// The first child element called `name`, without collecting the others.
    public func firstElement(named name: String) -> XMLTree? {
        for child in children {
            if case .element(let element) = child, element.name == name { return element }
        }
        return nil
    }

    /// All text below the element, markup removed.
    public var text: String {
        // The usual element holds one text or nothing: no pieces to join.
        if children.isEmpty { return "" }
        if children.count == 1, case .text(let text) = children[0] { return text }
        return children.map { child in
            switch child {
            case .text(let text): text
            case .element(let element): element.text
            case .comment: ""
            }
        }.joined()
    }

    /// How deeply elements may nest (the root is depth 1). Android resources and XLIFF need fewer than ten;
    /// a deeper document is refused while it is read, because a tree of 100,000 nested elements overflows the
    /// stack when it is walked or freed.
    public static let maxDepth = 100

    /// Parses a document and returns its root element. Throws `ConversionError` with the parser's message,
    /// line and column, or, for elements nested deeper than `maxDepth`, where the first too deep one starts.
    /// A document read as UTF-8 that holds a byte that is not UTF-8, or one holding a processing instruction without
    /// data, is refused the same way, before the parser sees it.
    public static func parse(_ bytes: [UInt8]) throws -> XMLTree {
        if let invalid = XMLEncodingCheck.firstInvalidByte(bytes) {
            let hex = String(invalid.byte, radix: 16, uppercase: true)
            throw ConversionError([.init(key: nil, reason: "not well-formed XML: byte 0x\(hex) at line \(invalid.position.line), column \(invalid.position.column) is not UTF-8", kind: .syntax,
                                         position: invalid.position)])
        }
        if let position = XMLEmptyInstructionCheck.firstEmptyInstruction(bytes) {
            throw ConversionError([.init(key: nil, reason: "a processing instruction without data (<?name?>) is not supported", kind: .syntax,
                                         position: position)])
        }
        let parser = XMLParser(data: Data(bytes))
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let position = builder.tooDeep {
            throw ConversionError([.init(key: nil, reason: "elements nested deeper than \(maxDepth) levels", kind: .syntax,
                                         position: position)])
        }
        guard parsed, let root = builder.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed"
            throw ConversionError([.init(key: nil, reason: "not well-formed XML: \(reason)", kind: .syntax,
                                         position: builder.errorPosition ?? FilePosition(line: max(1, parser.lineNumber), column: max(1, parser.columnNumber)))])
        }
        return root
    }
}

/// Collects `XMLParser` events into an `XMLTree`. Used by one parse on one thread.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private struct Open {
        var name: String
        var attributes: [String: String]
        var children: [XMLTree.Child]
        var position: FilePosition
    }

    private var stack: [Open] = []
    var root: XMLTree?
    /// Where the parser was when it reported the first error (it has read on by the time `parse()` returns).
    var errorPosition: FilePosition?
    /// Where the first element deeper than `XMLTree.maxDepth` started; parsing stops there.
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
