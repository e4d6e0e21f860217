import Testing
import StableJSON

@Suite("JSONWriter: stable bytes", .timeLimit(.minutes(10)))
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

    @Test("scaled decimals write the text the Double would, exactly")
    func scaledDecimals() {
        let cases: [(Int, Int, String)] = [(4501, 3, "4.501"), (4500, 3, "4.5"), (7000, 3, "7"), (0, 4, "0"), (1, 4, "0.0001"), (-20, 1, "-2"),
                                           (-125, 2, "-1.25"), (123_456, 0, "123456"), (10_001, 4, "1.0001"), (9, 2, "0.09")]
        for (units, places, text) in cases {
            var writer = JSONWriter()
            writer.number(units, places: places)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == text)
            var pow10 = 1.0
            for _ in 0..<places { pow10 *= 10 }
            if abs(Double(units) / pow10) >= 0.0001 || units == 0 { #expect(JSONNumber(Double(units) / pow10)?.literal == text) }
        }
        // Up to 19 or 20 digits: exact (where a Double no longer is).
        let long: [(Int, Int, String)] = [(Int.max, 0, "9223372036854775807"), (Int.min, 18, "-9.223372036854775808"),
                                          (1_000_000_000_000_000_000, 18, "1"), (999_999_999_999_999_999, 0, "999999999999999999")]
        for (units, places, text) in long {
            var writer = JSONWriter()
            writer.number(units, places: places)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == text)
        }
    }

    @Test("in-place members and raw values are separated like any other")
    func inPlaceWrites() {
        var writer = JSONWriter()
        writer.beginArray()
        writer.raw("{}".utf8)
        writer.beginObject()
        writer.member(static: "a", unescapedCount: 3) { $0.update(repeating: UInt8(ascii: "x"), count: 3) }
        writer.member(static: "bb", unescapedCount: 0) { _ in }
        writer.endObject()
        writer.raw("7".utf8)
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"[{},{"a":"xxx","bb":""},7]"#)

        var pretty = JSONWriter(pretty: true)
        pretty.beginObject()
        pretty.member(static: "a", unescapedCount: 1) { $0[0] = UInt8(ascii: "y") }
        pretty.endObject()
        #expect(String(decoding: pretty.bytes, as: UTF8.self) == "{\n  \"a\": \"y\"\n}")
    }

    @Test("static keys give the same bytes as string keys")
    func staticKeys() {
        var fast = JSONWriter(), plain = JSONWriter()
        fast.beginObject(); fast.key(static: "a"); fast.number(1); fast.member(static: "b", "x\"y"); fast.endObject()
        plain.beginObject(); plain.key("a"); plain.number(1); plain.member("b", "x\"y"); plain.endObject()
        #expect(fast.bytes == plain.bytes)
        #expect(String(decoding: fast.bytes, as: UTF8.self) == #"{"a":1,"b":"x\"y"}"#)
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
