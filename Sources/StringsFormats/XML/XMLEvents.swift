/// The events `lookd_xml_parse` wrote (see `lookd_xml.h`), read back into an `XMLTree` the way Foundation's
/// `XMLParser` delegate that built trees before did: text and comments outside the root are dropped, consecutive
/// text is one child, an element's attributes are a dictionary (a repeated name keeps its last value). Reads memory
/// it does not own: use it only while the buffer lives.
struct XMLEvents {
    let bytes: UnsafeRawBufferPointer
    /// How many element starts ('S') and texts ('T') `bytes` holds, as `lookd_xml_parse` counted them.
    let elementCount: Int
    let textCount: Int
    /// Where reading is: the next record's kind byte, or inside a record being read.
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer, elementCount: Int, textCount: Int) {
        self.bytes = bytes
        self.elementCount = elementCount
        self.textCount = textCount
    }

    private struct Open {
        var name: String
        var attributes: [String: String]
        var children: [XMLTree.Child]
        var position: FilePosition
    }

    /// The number at `offset` (a native-endian uint32), moving past it.
    mutating func number() -> Int {
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return Int(value)
    }

    /// Moves `offset` on by `count` bytes.
    mutating func skip(_ count: Int) { offset += count }

    /// The next record's kind, moving past it; nil at the end.
    mutating func kind() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func text() -> String {
        let length = number()
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        offset += length
        return text
    }

    /// The last root element, nil when the events hold none.
    mutating func tree() -> XMLTree? {
        var stack: [Open] = []
        var root: XMLTree?
        while let kind = kind() {
            switch kind {
            case UInt8(ascii: "S"):
                let line = number(), column = number()
                let name = text()
                let count = number()
                var attributes: [String: String] = [:]
                attributes.reserveCapacity(count)
                for _ in 0..<count {
                    let key = text()
                    attributes[key] = text()
                }
                stack.append(Open(name: name, attributes: attributes, children: [], position: FilePosition(line: line, column: max(1, column))))
            case UInt8(ascii: "E"):
                guard let open = stack.popLast() else { continue }
                let element = XMLTree(name: open.name, attributes: open.attributes, children: open.children, position: open.position)
                if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(.element(element)) }
            case UInt8(ascii: "T"):
                let text = text()
                guard !stack.isEmpty else { continue }
                // The C side joins consecutive pieces; text after a comment or an element is a child of its own.
                stack[stack.count - 1].children.append(.text(text))
            default:
                let comment = text()
                guard !stack.isEmpty else { continue }
                stack[stack.count - 1].children.append(.comment(comment))
            }
        }
        return root
    }
}
