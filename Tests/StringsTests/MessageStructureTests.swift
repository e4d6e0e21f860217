import Strings
import Testing

/// The pattern structure the translation linter reads: names, types, styles, keys and positions (code points).
@Suite(.timeLimit(.minutes(10))) struct MessageStructureTests {
    @Test func argumentsKeysAndPositions() throws {
        let pattern = "Ünï {count, plural, =0 {None} one {# from {name}} other {# items}} on {date, date, ::dMMM}, {status, select, away {A} other {B}}"
        let structure = try MessageStructure(pattern: pattern)
        let scalars = Array(pattern.unicodeScalars)
        func offset(of text: String, from start: Int = 0) -> Int {
            let needle = Array(text.unicodeScalars)
            for index in start...(scalars.count - needle.count) where Array(scalars[index..<index + needle.count]) == needle {
                return index
            }
            return -1
        }
        #expect(structure.argumentNames == ["count", "name", "date", "status"])
        #expect(structure.arguments.map(\.type) == [.plural, .string, .date, .select])
        #expect(structure.arguments.map(\.offset) == [offset(of: "count"), offset(of: "name}"), offset(of: "date,"), offset(of: "status")])
        #expect(structure.arguments[2].style == "::dMMM")
        #expect(structure.keys(ofArgument: 0) == ["=0", "one", "other"])
        #expect(structure.keys(ofArgument: 3) == ["away", "other"])
        #expect(structure.selectors.map(\.offset) == [offset(of: "=0"), offset(of: "one {"), offset(of: "other {#"),
                                                        offset(of: "away"), offset(of: "other {B")])
        // {name} sits inside the `one` branch of the plural.
        let enclosing = try #require(structure.arguments[1].enclosingSelector)
        #expect(structure.selectors[enclosing].key == "one")
        #expect(structure.arguments[0].enclosingSelector == nil)
        #expect(structure.argumentTypes["count"] == [.plural])
    }

    @Test func quotedTextIsNotAnArgument() throws {
        let structure = try MessageStructure(pattern: "It''s '{literal}' and {real}")
        #expect(structure.argumentNames == ["real"])
    }

    @Test func parseErrorsGiveICUsNameAndOffset() {
        #expect(throws: FormatError.self) { try MessageStructure(pattern: "{count, plural, one {x} other {y}") }
        do {
            _ = try MessageStructure(pattern: "ab {c, select, x {1}}")
            Issue.record("a select without other parsed")
        } catch let FormatError.invalidPattern(_, error, offset) {
            #expect(error.hasPrefix("U_"))
            #expect(offset >= 0)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
