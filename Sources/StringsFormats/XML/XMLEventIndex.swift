import CXML

/// The elements of one document's events (`lookd_xml.h`) as an index into its bytes: names, attributes and text are
/// read where they lie, and only what a reader asks for becomes a `String`. It answers as the `XMLTree` built from the
/// same events would (the last root element ended is the root; an element's attributes keep the last value of a
/// repeated name; `text` joins every text below the element, comments left out). Reads memory it does not own: use
/// it only inside `XMLTree.withEvents`. XLIFF is read this way because building and freeing the tree was 43 + ~40 of
/// the 449 million instructions of `lookd lint` on one `lint-xliff` bench file (callgrind, 2 Dec 2026).
struct XMLEventIndex {
    /// An element: where its name and attributes are, its position, its first child and next sibling elements, and
    /// the range of `texts` below it. Indices into `elements`, -1 for none.
    struct Element {
        var nameStart: Int
        var nameLength: Int
        var attributesStart: Int
        var attributeCount: Int
        var position: FilePosition
        var firstChild = -1
        var lastChild = -1
        var nextSibling = -1
        var textStart: Int
        var textEnd: Int
    }

    private let bytes: UnsafeRawBufferPointer
    private(set) var elements: [Element] = []
    /// Where each text record's bytes are, in document order.
    private var texts: [(start: Int, length: Int)] = []
    /// The last top-level element that ended; nil when none did.
    private(set) var root: Int?

    init(_ events: XMLEvents) {
        bytes = events.bytes
        // Sized once from the parser's counts: grown as read, the copies were 2.5 of the 209 million instructions of
        // `lookd lint` on one `lint-xliff` bench file (callgrind, 3 Dec 2026).
        elements.reserveCapacity(events.elementCount)
        texts.reserveCapacity(events.textCount)
        var events = events
        var stack: [Int] = []
        while let kind = events.kind() {
            switch kind {
            case UInt8(ascii: "S"):
                let line = events.number(), column = events.number()
                let nameLength = events.number()
                let nameStart = events.offset
                events.skip(nameLength)
                let count = events.number()
                let attributesStart = events.offset
                for _ in 0..<count {
                    events.skip(events.number())
                    events.skip(events.number())
                }
                let index = elements.count
                elements.append(Element(nameStart: nameStart, nameLength: nameLength, attributesStart: attributesStart,
                                        attributeCount: count, position: FilePosition(line: line, column: max(1, column)),
                                        textStart: texts.count, textEnd: texts.count))
                if let parent = stack.last {
                    if elements[parent].lastChild < 0 { elements[parent].firstChild = index } else { elements[elements[parent].lastChild].nextSibling = index }
                    elements[parent].lastChild = index
                }
                stack.append(index)
            case UInt8(ascii: "E"):
                guard let index = stack.popLast() else { continue }
                elements[index].textEnd = texts.count
                if stack.isEmpty { root = index }
            case UInt8(ascii: "T"):
                let length = events.number()
                if !stack.isEmpty { texts.append((events.offset, length)) }
                events.skip(length)
            default:
                events.skip(events.number())
            }
        }
    }

    private func equals(_ start: Int, _ length: Int, _ name: StaticString) -> Bool {
        equals(start, length, UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    private func equals(_ start: Int, _ length: Int, _ name: UnsafeRawBufferPointer) -> Bool {
        length == name.count && UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)]).elementsEqual(name)
    }

    private func string(_ start: Int, _ length: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)]), as: UTF8.self)
    }

    func name(_ element: Int) -> String { string(elements[element].nameStart, elements[element].nameLength) }

    func isNamed(_ element: Int, _ name: StaticString) -> Bool {
        equals(elements[element].nameStart, elements[element].nameLength, name)
    }

    /// The attribute's value (the last one when the name is repeated), nil when the element has none of that name.
    /// `name`'s bytes are read where they are: copied into an array for each call (three calls a unit; a string
    /// literal argument is a `String`, the default literal type, so an overload taking a `StaticString` went unused),
    /// they were 2.1 + 2.3 (freeing) of the 202 million instructions of `lookd lint` on one `lint-xliff` bench file
    /// (callgrind, 3 Dec 2026).
    func attribute(_ element: Int, _ name: String) -> String? {
        var name = name
        return name.withUTF8 { attribute(element, UnsafeRawBufferPointer($0)) }
    }

    private func attribute(_ element: Int, _ name: UnsafeRawBufferPointer) -> String? {
        var offset = elements[element].attributesStart
        var found: (start: Int, length: Int)?
        for _ in 0..<elements[element].attributeCount {
            let keyLength = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let keyStart = offset + 4
            let valueLength = Int(bytes.loadUnaligned(fromByteOffset: keyStart + keyLength, as: UInt32.self))
            let valueStart = keyStart + keyLength + 4
            if equals(keyStart, keyLength, name) { found = (valueStart, valueLength) }
            offset = valueStart + valueLength
        }
        return found.map { string($0.start, $0.length) }
    }

    /// The child elements called `name`, in order.
    func children(_ element: Int, named name: StaticString) -> [Int] {
        var result: [Int] = []
        var child = elements[element].firstChild
        while child >= 0 {
            if isNamed(child, name) { result.append(child) }
            child = elements[child].nextSibling
        }
        return result
    }

    /// Every child element, in order.
    func children(_ element: Int) -> [Int] {
        var result: [Int] = []
        var child = elements[element].firstChild
        while child >= 0 {
            result.append(child)
            child = elements[child].nextSibling
        }
        return result
    }

    /// The first child element called `name`.
    func firstChild(_ element: Int, named name: StaticString) -> Int? {
        var child = elements[element].firstChild
        while child >= 0 {
            if isNamed(child, name) { return child }
            child = elements[child].nextSibling
        }
        return nil
    }

    /// All text below the element, markup and comments removed (`XMLTree.text`).
    func text(_ element: Int) -> String {
        let range = elements[element].textStart..<elements[element].textEnd
        if range.count == 1 { return string(texts[range.lowerBound].start, texts[range.lowerBound].length) }
        var joined: [UInt8] = []
        for index in range { joined.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[texts[index].start..<(texts[index].start + texts[index].length)])) }
        return String(decoding: joined, as: UTF8.self)
    }
}
