import Testing
import StableJSON

@Suite("JSONWriter: stable bytes")
struct JSONWriterTests {
    @Test("compact, keys sorted by UTF-8 bytes at every level")
    func sortedKeys() {
        let value = JSONValue.object([
            "b": .number(1), "a": .object(["z": .null, "B": .bool(true), "é": .bool(false)]), "A": .array([.string("x"), .number(2)]),
        ])
        #expect(JSONWriter.string(value) == #"{"A":["x",2],"a":{"B":true,"z":null,"é":false},"b":1}"#)
    }

    @Test("escapes control characters, quote and backslash; not slash, not non-ASCII")
    func escaping() {
        let text = "a\u{0}\u{1}\u{8}\u{C}\n\r\t\u{1F}\"\\/\u{7F}é\u{2028}😀"
        #expect(JSONWriter.string(.string(text)) == #""a\u0000\u0001\b\f\n\r\t\u001f\"\\/"# + "\u{7F}é\u{2028}😀\"")
    }

    @Test("every string survives write → read", arguments: ["", "plain", "\u{0}\u{1F}\"\\", "日本語 テキスト", "\u{10FFFF}\u{FEFF}"])
    func roundTrip(text: String) throws {
        let value = JSONValue.object([text: .array([.string(text)])])
        #expect(try JSONReader.read(JSONWriter.bytes(value)) == value)
    }

    @Test("numbers from literals, integers and doubles")
    func numbers() {
        let doubles: [(Double, String)] = [(1, "1"), (4.5, "4.5"), (-0.25, "-0.25"), (0.0001, "0.0001"), (1e-5, "1e-05"), (1e21, "1e+21")]
        for (double, text) in doubles { #expect(JSONNumber(double)?.literal == text) }
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Double.infinity) == nil)
        #expect(JSONNumber(literal: "01") == nil)
        #expect(JSONNumber(literal: "1.") == nil)
        #expect(JSONNumber(literal: "") == nil)
        var writer = JSONWriter()
        writer.beginArray()
        writer.number(7)
        writer.number(-12)
        writer.number(0.5)
        writer.number(Double.nan)
        writer.number(JSONNumber(literal: "1.50")!)
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[7,-12,0.5,null,1.50]")
    }

    @Test("pretty printing: two-space indent, a line per member, empty containers closed")
    func pretty() {
        let value = JSONValue.object(["b": .array([.number(1), .object([:])]), "a": .array([])])
        #expect(JSONWriter.string(value, pretty: true) == """
        {
          "a": [],
          "b": [
            1,
            {}
          ]
        }
        """)
    }

    @Test("streaming gives the same bytes as the tree")
    func streaming() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("count"); writer.number(2)
        writer.key("items"); writer.beginArray(); writer.string("a"); writer.beginObject(); writer.member("k", "v"); writer.endObject(); writer.endArray()
        writer.key("ok"); writer.bool(true)
        writer.endObject()
        let tree = JSONValue.object(["ok": .bool(true), "count": .number(2), "items": .array([.string("a"), .object(["k": .string("v")])])])
        #expect(writer.bytes == JSONWriter.bytes(tree))
        var pretty = JSONWriter(pretty: true)
        pretty.beginObject(); pretty.key("a"); pretty.beginArray(); pretty.number(1); pretty.endArray(); pretty.endObject()
        #expect(String(decoding: pretty.bytes, as: UTF8.self) == "{\n  \"a\": [\n    1\n  ]\n}")
    }

    @Test("equal values give equal bytes whatever order their members were built in")
    func stable() {
        var forward: [String: JSONValue] = [:], backward: [String: JSONValue] = [:]
        let keys = (0..<200).map { "key\($0 * 7919 % 1000)" }
        for key in keys { forward[key] = .string(key) }
        for key in keys.reversed() { backward[key] = .string(key) }
        #expect(JSONWriter.bytes(.object(forward)) == JSONWriter.bytes(.object(backward)))
    }
}
