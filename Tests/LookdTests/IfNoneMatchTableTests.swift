@testable import LookdServer
import Testing

/// One If-None-Match rule (RFC 9110 §13.1.2), the same answer on every path: the rule itself, the engine's response
/// cache over a socket, and the Swift routes over a socket (the look fetch and `/v1/strings`).
@Suite("If-None-Match: one rule, written from RFC 9110, on every path", .timeLimit(.minutes(10)))
struct IfNoneMatchTableTests {
    /// A field value, whether it matches a representation tagged `etag` (304), and why, from RFC 9110: §13.1.2
    /// (`*` or a list of entity tags; the weak comparison), §8.8.3 (entity-tag = [ W/ ] DQUOTE *etagc DQUOTE, W/
    /// case-sensitive, etagc = %x21 / %x23-7E / obs-text), §5.6.1 (list: OWS "," OWS, empty elements ignored), and
    /// §5.5 (a field value's leading and trailing whitespace is not part of it). A malformed value is not a
    /// precondition that holds: the full answer.
    static func rows(_ etag: String) -> [(value: String, matches: Bool, why: String)] {
        let inner = String(etag.dropFirst().dropLast())
        return [
            (etag, true, "the tag itself"),
            ("W/" + etag, true, "weak comparison: W/ on the request's tag is ignored"),
            ("*", true, "* matches any current representation"),
            ("\t* ", true, "* with whitespace around the field value"),
            ("\"x\", " + etag, true, "a member of a list"),
            ("\"x\"," + etag, true, "a list without spaces"),
            ("\"x\" ,\t" + etag, true, "OWS (space, tab) on both sides of the comma"),
            (", ," + etag + ",", true, "empty list elements are ignored"),
            ("W/\"x\", W/" + etag, true, "weak members"),
            ("\"x\"", false, "another tag"),
            ("W/\"x\"", false, "another weak tag"),
            ("\"\"", false, "the empty opaque tag is well formed and different"),
            (",", false, "a list with no element"),
            ("*, " + etag, false, "* is the whole value, not a list member: malformed"),
            (etag + ", *", false, "* inside a list: malformed"),
            ("**", false, "not * nor a list"),
            ("w/" + etag, false, "the weak indicator is %s\"W/\": case-sensitive, so malformed"),
            ("W/ " + etag, false, "no space inside W/\"…\""),
            (inner, false, "an unquoted tag is malformed"),
            ("\"" + inner, false, "no closing quote"),
            (etag + " \"x\"", false, "two members without a comma"),
            ("\"x\" y, " + etag, false, "garbage after a member makes the whole list malformed"),
            ("\"a\"b\", " + etag, false, "a DQUOTE inside a tag is not etagc"),
            (etag + "x", false, "garbage right after the tag"),
        ]
    }

    @Test func theRuleItself() {
        let etag = "\"v3-0123456789abcdef\""
        for row in Self.rows(etag) {
            #expect(EntityTag.noneMatchHolds(row.value, etag: etag) == row.matches, "\(row.value): \(row.why)")
        }
        #expect(!EntityTag.noneMatchHolds(nil, etag: etag))
        #expect(!EntityTag.noneMatchHolds("", etag: etag))
        // The representation's own tag may be weak: compared without its W/.
        #expect(EntityTag.noneMatchHolds("\"x\"", etag: "W/\"x\""))
    }

    @Test func theEnginesCacheAndTheSwiftRoutesAnswerEveryRowAlike() throws {
        let app = try ResponseCacheTests.Fixture()
        let key = newKey()
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        let cached = "/v1/apps/\(key)/look?lang=de"   // the engine's, once the first fetch filled it
        let swift = "/v1/apps/\(key)/look"            // never the engine's: the language comes from Accept-Language
        let first = try app.send("GET", cached)
        #expect(first.status == 200)
        let etag = try #require(first.header("ETag"))
        #expect(try app.send("GET", swift, [("Accept-Language", "de")]).header("ETag") == etag)
        let strings = try app.send("GET", "/v1/strings?lang=de")
        let stringsTag = try #require(strings.header("ETag"))

        for row in Self.rows(etag) {
            let wanted = row.matches ? 304 : 200
            let before = app.answered.reduce(0, +)
            #expect(try app.send("GET", cached, [("If-None-Match", row.value)]).status == wanted, "engine: \(row.value): \(row.why)")
            #expect(app.answered.reduce(0, +) == before + 1, "the engine's cache answered \(row.value)")
            #expect(try app.send("GET", swift, [("Accept-Language", "de"), ("If-None-Match", row.value)]).status == wanted,
                    "Swift route: \(row.value): \(row.why)")
            #expect(app.answered.reduce(0, +) == before + 1, "the Swift route answered \(row.value)")
        }
        for row in Self.rows(stringsTag) {
            #expect(try app.send("GET", "/v1/strings?lang=de", [("If-None-Match", row.value)]).status == (row.matches ? 304 : 200),
                    "strings: \(row.value): \(row.why)")
        }
    }

    /// Two If-None-Match lines are one list (RFC 9110 §5.3): the engine leaves them to the route, which combines them.
    @Test func repeatedFieldLinesAreOneList() throws {
        let app = try ResponseCacheTests.Fixture()
        let key = newKey()
        #expect(try app.send("PUT", "/v1/apps/\(key)/look", [("If-None-Match", "*")], body: json(["corners": "square"])).status == 201)
        let target = "/v1/apps/\(key)/look?lang=de"
        let etag = try #require(try app.send("GET", target).header("ETag"))
        #expect(try app.send("GET", target, [("If-None-Match", "\"x\""), ("If-None-Match", etag)]).status == 304)
        #expect(try app.send("GET", target, [("If-None-Match", "\"x\""), ("If-None-Match", "\"y\"")]).status == 200)
        #expect(try app.send("GET", target, [("If-None-Match", "*"), ("If-None-Match", etag)]).status == 200)   // * in a list
        #expect(app.answered == [0, 0, 0, 0])
    }
}
