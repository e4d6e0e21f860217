import Testing
import StableJSON

/// RFC 8259 conformance, including the JSONTestSuite classics that lenient parsers accept.
@Suite("JSONReader: RFC 8259, strictly", .timeLimit(.minutes(10)))
struct JSONReaderTests {
    func read(_ text: String, limits: JSONReader.Limits = .default) throws -> JSONValue {
        try JSONReader.read(Array(text.utf8), limits: limits)
    }

    func code(_ bytes: [UInt8], limits: JSONReader.Limits = .default) -> JSONReadError.Code? {
        do {
            _ = try JSONReader.read(bytes, limits: limits)
            return nil
        } catch {
            return (error as? JSONReadError)?.code
        }
    }

    func code(_ text: String) -> JSONReadError.Code? { code(Array(text.utf8)) }

    @Test("accepts every kind of value, with white space around and inside")
    func accepts() throws {
        let value = try read(" \t\r\n{\"a\" : [1, -0.5e+3, true, false, null, \"x\"], \"b\": {}, \"c\": []}\n")
        #expect(value == .object([
            "a": .array([.number(1), .number(JSONNumber(literal: "-0.5e+3")!), .bool(true), .bool(false), .null, .string("x")]),
            "b": .object([:]),
            "c": .array([]),
        ]))
        #expect(try read("\"top-level string\"") == .string("top-level string"))
        #expect(try read("0") == .number(0))
    }

    @Test("refuses what lenient parsers accept", arguments: [
        ("[1,]", JSONReadError.Code.trailingComma),
        ("{\"a\":1,}", .trailingComma),
        ("{\"a\":1,\"a\":2}", .duplicateKey),
        ("{\"a\":1,\"\\u0061\":2}", .duplicateKey),
        ("[1] // note", .trailingContent),
        ("// note\n[1]", .unexpectedCharacter),
        ("/* c */ 1", .unexpectedCharacter),
        ("['a']", .unexpectedCharacter),
        ("[NaN]", .unexpectedCharacter),
        ("[Infinity]", .unexpectedCharacter),
        ("[01]", .invalidNumber),
        ("[1.]", .invalidNumber),
        ("[.5]", .unexpectedCharacter),
        ("[+1]", .unexpectedCharacter),
        ("[1e]", .invalidNumber),
        ("[-]", .invalidNumber),
        ("[0x10]", .unexpectedCharacter),
        ("[\"\\x41\"]", .invalidEscape),
        ("[\"\\u12\"]", .invalidEscape),
        ("[\"\\uD800\"]", .loneSurrogate),
        ("[\"\\uDC00\"]", .loneSurrogate),
        ("[\"\\uD800\\u0041\"]", .loneSurrogate),
        ("[\"tab\there\"]", .controlCharacter),
        ("[\"new\nline\"]", .controlCharacter),
        ("[1] [2]", .trailingContent),
        ("", .unexpectedEnd),
        ("   ", .unexpectedEnd),
        ("[1", .unexpectedEnd),
        ("{\"a\"", .unexpectedEnd),
        ("\"abc", .unexpectedEnd),
        ("{a:1}", .unexpectedCharacter),
        ("[tru]", .unexpectedCharacter),
        ("[1 2]", .unexpectedCharacter),
    ])
    func refuses(text: String, expected: JSONReadError.Code) {
        #expect(code(text) == expected, "\(text)")
    }

    @Test("only UTF-8: a byte order mark, UTF-16 and UTF-32 are refused")
    func encodings() {
        #expect(code([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .invalidEncoding)
        #expect(code([0xFF, 0xFE, UInt8(ascii: "{"), 0, UInt8(ascii: "}"), 0]) == .invalidEncoding)
        #expect(code([0xFE, 0xFF, 0, UInt8(ascii: "{"), 0, UInt8(ascii: "}")]) == .invalidEncoding)
        #expect(code([UInt8(ascii: "{"), 0, UInt8(ascii: "}"), 0]) == .invalidEncoding)
        #expect(code([0, 0, 0, UInt8(ascii: "1")]) == .invalidEncoding)
    }

    @Test("malformed UTF-8 is refused; every well-formed length is read", arguments: [
        [0x80], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF0, 0x80, 0x80, 0xAF],
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xC3], [0xE2, 0x82], [0xE2, 0x28, 0xA1],
    ] as [[UInt8]])
    func malformedUTF8(sequence: [UInt8]) {
        #expect(code([UInt8(ascii: "\"")] + sequence + [UInt8(ascii: "\"")]) == .invalidUTF8, "\(sequence)")
    }

    @Test("well-formed UTF-8 and escapes decode to the same scalars")
    func unicode() throws {
        #expect(try read("\"é€😀\u{FFFF}\"") == .string("é€😀\u{FFFF}"))
        #expect(try read(#""\u00e9\u20AC\uD83D\uDE00\uFFFF""#) == .string("é€😀\u{FFFF}"))
        #expect(try read(#""\"\\\/\b\f\n\r\t\u0000""#) == .string("\"\\/\u{8}\u{C}\n\r\t\u{0}"))
        // Object keys are Swift strings, which compare canonically equivalent spellings as equal: the NFC and NFD
        // forms of one key are one key, so naming both is a duplicate (never a silent overwrite).
        #expect(code("{\"é\":1,\"e\\u0301\":2}") == .duplicateKey)
        #expect(try read("{\"é\":1,\"e\":2}").objectValue?.count == 2)
    }

    @Test("numbers keep their literal exactly, beyond 2^53 and beyond Double")
    func numbers() throws {
        for literal in ["9007199254740993", "-9007199254740993", "123456789012345678901234567890", "1.10", "1E2", "-0", "1e400", "0.1000000000000000055511151231257827"] {
            let value = try read("[\(literal)]")
            #expect(value == .array([.number(try #require(JSONNumber(literal: literal)))]))
            #expect(JSONWriter.string(value) == "[\(literal)]", "read → write keeps \(literal)")
        }
        let big = try #require(try read("9007199254740993").numberValue)
        #expect(big.int == 9_007_199_254_740_993)
        #expect(big.double == 9_007_199_254_740_992)
        #expect(try read("1e400").doubleValue == .infinity)
        #expect(try read("2.5e1").intValue == 25)
        #expect(try read("1.5").intValue == nil)
    }

    @Test("500-deep nesting is refused by the depth limit; a raised limit reads it")
    func depth() throws {
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(code(deep) == .depthLimit)
        let error = try #require(throws: JSONReadError.self) { try read(deep) }
        #expect(error.offset == 128, "stops at the first level past the limit")
        #expect(try read(deep, limits: .init(maxDepth: 500)) != .null)
        #expect(code(Array((String(repeating: "{\"a\":", count: 200) + "1" + String(repeating: "}", count: 200)).utf8)) == .depthLimit)
        #expect(throws: JSONReadError.self) { try read(String(repeating: "[", count: 100_000)) }
    }

    @Test("string length and value count limits")
    func limits() throws {
        let limits = JSONReader.Limits(maxStringBytes: 4, maxValues: 3)
        #expect(try read("\"abcd\"", limits: limits) == .string("abcd"))
        #expect(code(Array("\"abcde\"".utf8), limits: limits) == .stringLimit)
        #expect(code(Array("\"ab\\ncde\"".utf8), limits: limits) == .stringLimit)
        #expect(code(Array("12345".utf8), limits: limits) == .stringLimit)
        #expect(try read("[1,2]", limits: limits) == .array([.number(1), .number(2)]))
        #expect(code(Array("[1,2,3]".utf8), limits: limits) == .valueLimit)
        #expect(code(Array("{\"a\":1,\"b\":2}".utf8), limits: limits) == .valueLimit, "keys count too")
    }

    @Test("errors carry a stable code, a message and line, column and byte offset")
    func positions() throws {
        let error = try #require(throws: JSONReadError.self) { try read("{\n  \"é\": 1,\n  \"é\": 2\n}") }
        #expect(error.code == .duplicateKey)
        #expect(error.code.rawValue == "duplicate_key")
        #expect(error.line == 3)
        #expect(error.column == 3)
        #expect(error.offset == 15)
        #expect(error.message.contains("\"é\""))
        #expect(error.description.hasPrefix("line 3, column 3: "))
    }
}
