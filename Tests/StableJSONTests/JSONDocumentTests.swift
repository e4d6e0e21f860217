import Testing
import StableJSON

@Suite("JSONDocument: order, positions, duplicates, ordered layouts", .timeLimit(.minutes(10)))
struct JSONDocumentTests {
    static let text = "{\n  \"b\": 1,\n  \"a\": [true, \"é\", null],\n  \"é\": {\"x\": \"y\"}\n}"

    @Test("members stay in file order; lookups find them")
    func order() throws {
        let document = try JSONReader.readDocument(Array(Self.text.utf8))
        #expect(document.members?.map(\.key) == ["b", "a", "é"])
        #expect(document["b"]?.intValue == 1)
        #expect(document["a"]?.elements?.map(\.typeName) == ["boolean", "string", "null"])
        #expect(document["é"]?["x"]?.stringValue == "y")
        #expect(document.jsonValue == (try JSONReader.read(Array(Self.text.utf8))))
    }

    @Test("every key and value has its line, column (in scalars) and byte offset")
    func positions() throws {
        let document = try JSONReader.readDocument(Array(Self.text.utf8))
        let members = try #require(document.members)
        #expect(document.position == JSONPosition(line: 1, column: 1, offset: 0))
        #expect(members[0].keyPosition == JSONPosition(line: 2, column: 3, offset: 4))
        #expect(members[0].value.position == JSONPosition(line: 2, column: 8, offset: 9))
        let elements = try #require(members[1].value.elements)
        #expect(elements.map(\.position.column) == [9, 15, 20])
        // "é" is two bytes but one column: the nested object's value starts after it.
        #expect(members[2].keyPosition == JSONPosition(line: 4, column: 3, offset: 41))
        #expect(members[2].value.position == JSONPosition(line: 4, column: 8, offset: 47))
        #expect(members[2].value.members?.first?.value.position == JSONPosition(line: 4, column: 14, offset: 53))
    }

    @Test("duplicate keys: refused by default at the repeat, kept with both positions on request")
    func duplicates() throws {
        let text = Array("{\"k\": 1,\n \"k\": 2}".utf8)
        let error = try #require(throws: JSONReadError.self) { try JSONReader.readDocument(text) }
        #expect(error.code == .duplicateKey)
        #expect((error.line, error.column) == (2, 2))
        let document = try JSONReader.readDocument(text, options: .init(duplicateKeys: .keep))
        #expect(document.members?.count == 2)
        #expect(document["k"]?.intValue == 1)
        let pair = try #require(document.duplicateMembers.first)
        #expect(pair.first.keyPosition.line == 1)
        #expect(pair.repeat.keyPosition == JSONPosition(line: 2, column: 2, offset: 10))
        #expect(document.jsonValue["k"]?.intValue == 2)
    }

    @Test("the same strict grammar as the value reader", arguments: ["{\"a\":1,}", "[01]", "{'a':1}", "\u{FEFF}{}", "[\"\u{1}\"]", "{} x"])
    func strict(text: String) {
        #expect(throws: JSONReadError.self) { try JSONReader.readDocument(Array(text.utf8)) }
    }

    @Test("writing a document keeps member order and numbers as written")
    func orderedWrite() throws {
        let text = #"{"z":[1.50,{"b":null,"a":"\n"}],"a":1e3}"#
        let document = try JSONReader.readDocument(Array(text.utf8))
        #expect(String(decoding: JSONWriter.bytes(document, layout: .compact), as: UTF8.self) == text)
    }

    @Test("Xcode's layout: \"key\" : value, two-space indent, empty objects with an empty line")
    func xcodeLayout() {
        let document = JSONDocument.object([
            .init("strings", .object([.init("k", .object([.init("localizations", .object([]))]))])),
            .init("version", .string("1.0")),
        ])
        let expected = "{\n  \"strings\" : {\n    \"k\" : {\n      \"localizations\" : {\n\n      }\n    }\n  },\n  \"version\" : \"1.0\"\n}\n"
        #expect(String(decoding: JSONWriter.bytes(document, layout: .xcode, lineFeed: true), as: UTF8.self) == expected)
    }

    @Test("lookd's catalog layout: a member a line, nested values on that line, blank lines between groups")
    func catalogLayout() {
        var writer = JSONWriter(layout: .catalog)
        writer.beginObject()
        writer.key("a.one")
        writer.beginObject()
        writer.member("message", "One")
        writer.key("maxLength")
        writer.number(12)
        writer.endObject()
        writer.blankLine()
        writer.member("b.two", "Two")
        writer.endObject()
        writer.lineFeed()
        let expected = "{\n  \"a.one\": {\"message\": \"One\", \"maxLength\": 12},\n\n  \"b.two\": \"Two\"\n}\n"
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    @Test("the pretty layout is unchanged by the layout options")
    func prettyUnchanged() {
        let value = JSONValue.object(["a": .array([]), "b": .object(["c": .number(1)])])
        #expect(JSONWriter.string(value, pretty: true) == "{\n  \"a\": [],\n  \"b\": {\n    \"c\": 1\n  }\n}")
    }

    @Test("recovering: raw control characters kept, lone surrogates as U+FFFD, each listed with its place")
    func recovering() throws {
        let text = Array("{\"a\": \"x\ty\",\n \"b\": \"\\uD800z\"}".utf8)
        #expect(throws: JSONReadError.self) { try JSONReader.readDocument(text) }
        var recovered: [JSONReadError] = []
        let document = try JSONReader.readDocument(text, options: .init(recoversFromStringDefects: true), recovered: &recovered)
        #expect(document["a"]?.stringValue == "x\ty")
        #expect(document["b"]?.stringValue == "\u{FFFD}z")
        #expect(recovered.map(\.code) == [.controlCharacter, .loneSurrogate])
        #expect(recovered.map { [$0.line, $0.column, $0.offset] } == [[1, 9, 8], [2, 8, 20]])
    }

    @Test("recovering skips a byte order mark and counts line 1's columns after it; strict reading refuses it")
    func byteOrderMark() throws {
        let text: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8)
        #expect(throws: JSONReadError.self) { try JSONReader.readDocument(text) }
        let document = try JSONReader.readDocument(text, options: .init(recoversFromStringDefects: true))
        #expect(document.members?.first?.keyPosition == JSONPosition(line: 1, column: 2, offset: 4))
    }
}
