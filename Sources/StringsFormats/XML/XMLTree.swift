import CXML

/// A parsed XML element with its children in order and where it starts — enough for Android resources and
/// XLIFF. Read with libxml2's SAX2 parser (`CXML`), set up as Foundation's `XMLParser` sets it up on Linux, so
/// documents read as they did through FoundationXML; no external entity or DTD is loaded. A value type.
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
        try withEvents(bytes) { events in
            var events = events
            return events.tree()
        }
    }

    /// `parse`'s checks and parse, handing the document's events to `read` (only while it runs); `read`'s nil means
    /// the events hold no root element, reported as `parse` reports it. Throws `parse`'s errors and `read`'s.
    static func withEvents<Result>(_ bytes: [UInt8], _ read: (XMLEvents) throws -> Result?) throws -> Result {
        if let invalid = XMLEncodingCheck.firstInvalidByte(bytes) {
            let hex = String(invalid.byte, radix: 16, uppercase: true)
            throw ConversionError([.init(key: nil, reason: "not well-formed XML: byte 0x\(hex) at line \(invalid.position.line), column \(invalid.position.column) is not UTF-8", kind: .syntax,
                                         position: invalid.position)])
        }
        if let position = XMLEmptyInstructionCheck.firstEmptyInstruction(bytes) {
            throw ConversionError([.init(key: nil, reason: "a processing instruction without data (<?name?>) is not supported", kind: .syntax,
                                         position: position)])
        }
        var result = lookd_xml_result()
        bytes.withUnsafeBufferPointer { lookd_xml_parse($0.baseAddress, $0.count, Int32(maxDepth), &result) }
        defer { lookd_xml_free(&result) }
        if result.too_deep != 0 {
            throw ConversionError([.init(key: nil, reason: "elements nested deeper than \(maxDepth) levels", kind: .syntax,
                                         position: FilePosition(line: max(1, Int(result.too_deep_line)), column: max(1, Int(result.too_deep_column))))])
        }
        let events = XMLEvents(UnsafeRawBufferPointer(start: result.events, count: result.length),
                               elementCount: result.element_count, textCount: result.text_count)
        guard result.status == 0, let read = try read(events) else {
            // The words Foundation's `XMLParser` gave (its error's `localizedDescription`), which lookd reported before it
            // read XML with libxml2 itself: the code of the last error libxml2 reported, else of the parse.
            let code = result.error_count > 0 ? result.last_error_code : result.status
            let reason = result.error_count > 0 || result.status != 0
                ? "The operation could not be completed. (NSXMLParserErrorDomain error \(code).)" : "not well-formed"
            let position = result.error_count > 0
                ? FilePosition(line: max(1, Int(result.first_error_line)), column: max(1, Int(result.first_error_column)))
                : FilePosition(line: max(1, Int(result.end_line)), column: max(1, Int(result.end_column)))
            throw ConversionError([.init(key: nil, reason: "not well-formed XML: \(reason)", kind: .syntax, position: position)])
        }
        return read
    }
}
