import Testing
import StableJSON

@Suite("JSONObject: sorted unique members, whatever order they are read or built in", .timeLimit(.minutes(10)))
struct JSONObjectTests {
    func read(_ text: String) throws -> JSONValue { try JSONReader.read(Array(text.utf8)) }

    @Test("members come sorted by key from any input order, and equal objects are equal")
    func sortedFromAnyOrder() throws {
        let forward = try #require(try read(#"{"a":1,"b":[true],"c":{"y":null,"x":"s"}}"#).objectValue)
        let backward = try #require(try read(#"{"c":{"x":"s","y":null},"b":[true],"a":1}"#).objectValue)
        let shuffled = try #require(try read(#"{"b":[true],"c":{"x":"s","y":null},"a":1}"#).objectValue)
        #expect(forward.keys == ["a", "b", "c"])
        #expect(backward.keys == ["a", "b", "c"])
        #expect(forward == backward && backward == shuffled)
        #expect(forward.hashValue == shuffled.hashValue)
        #expect(backward["c"]?.objectValue?.keys == ["x", "y"])
        #expect(forward["b"] == .array([.bool(true)]) && forward["missing"] == nil)
    }

    @Test("a repeated key is refused at the repeat, in order or not, canonically equivalent spellings included")
    func duplicates() throws {
        for (text, offset) in [(#"{"a":1,"b":2,"a":3}"#, 13), (#"{"b":1,"a":2,"b":3}"#, 13), (#"{"z":0,"b":1,"a":2,"b":3}"#, 19)] {
            let error = try #require(throws: JSONReadError.self) { try read(text) }
            #expect(error.code == .duplicateKey, "\(text)")
            #expect(error.offset == offset, "\(text)")
        }
        // Out of order first ("z" before "é"), then the decomposed spelling of "é".
        let error = try #require(throws: JSONReadError.self) { try read("{\"z\":0,\"é\":1,\"e\u{301}\":2}") }
        #expect(error.code == .duplicateKey)
    }

    @Test("a large object in reverse order reads whole and sorted (no quadratic insertion)")
    func reverseOrder() throws {
        let count = 50_000
        func key(_ number: Int) -> String { "k" + String(String(1_000_000 + number).dropFirst()) }
        let text = "{" + (0..<count).reversed().map { "\"\(key($0))\":\($0)" }.joined(separator: ",") + "}"
        let object = try #require(try read(text).objectValue)
        #expect(object.count == count)
        #expect(object.members.first?.key == "k000000" && object.members.last?.key == "k049999")
        #expect(object["k012345"] == JSONValue.number(12345))
    }

    @Test("building: literals and pairs keep the last of a key; setting nil removes; the writer sorts by bytes")
    func building() {
        var object: JSONObject = ["b": .number(1), "a": .number(2), "b": .number(3)]
        #expect(object.members.map(\.key) == ["a", "b"] && object["b"] == .number(3))
        object["c"] = .null
        object["a"] = nil
        #expect(object.keys == ["b", "c"] && object["c"] == .null)
        #expect(JSONObject([("x", .number(1)), ("w", .number(2)), ("x", .number(3))]) == ["w": .number(2), "x": .number(3)])
        #expect(JSONObject(["é": .number(1), "z": .number(2), "Z": .number(3)]).keys == ["Z", "z", "é"])
        #expect(JSONWriter.string(.object(["é": .number(1), "z": .number(2), "e": .number(3)])) == #"{"e":3,"z":2,"é":1}"#)
    }
}
