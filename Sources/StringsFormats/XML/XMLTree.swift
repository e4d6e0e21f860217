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

    /// All text below the element, markup removed.
    public var text: String {
        children.map { child in
            switch child {
            case .text(let text): text
            case .element(let element): element.text
            case .comment: ""
            }
        }.joined()
    }

    /// Parses a document and returns its root element. Throws `ConversionError` with the parser's message,
    /// line and column.
    public static func parse(_ bytes: [UInt8]) throws -> XMLTree {
        let parser = XMLParser(data: Data(bytes))
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        guard parser.parse(), let root = builder.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed"
            throw ConversionError([.init(key: nil, reason: "not well-formed XML: \(reason)", kind: .syntax,
                                         position: FilePosition(line: max(1, parser.lineNumber), column: max(1, parser.columnNumber)))])
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

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
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
