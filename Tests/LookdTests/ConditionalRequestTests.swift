import Testing
@testable import LookdServer

@Suite("If-None-Match and field names, byte-wise")
struct ConditionalRequestTests {
    @Test func ifNoneMatchUsesTheWeakComparisonOverTheList() {
        let tag = "\"v3-0123456789abcdef\""
        #expect(ifNoneMatch(tag, matches: tag))
        #expect(ifNoneMatch("*", matches: tag))
        #expect(ifNoneMatch("W/" + tag, matches: tag))
        #expect(ifNoneMatch("\"other\", \t" + tag + " ", matches: tag))
        #expect(ifNoneMatch("\"a\",,W/" + tag, matches: tag))
        #expect(!ifNoneMatch("\"v3-0123456789abcdee\"", matches: tag))
        #expect(!ifNoneMatch("", matches: tag))
        #expect(!ifNoneMatch("\"v3\"", matches: tag))
        #expect(!ifNoneMatch(String(tag.dropLast()), matches: tag))
    }

    @Test func fieldNamesCompareIgnoringASCIICaseOnly() {
        let request = Request(method: "GET", path: "/", headers: [("IF-NONE-match", "x"), ("X-A_b", "y")])
        #expect(request.header("if-none-match") == "x")
        #expect(request.header("x-a_B") == "y")
        #expect(request.header("x-a\u{7F}b") == nil)
        #expect(request.header("if-none-matc") == nil)
        #expect(!equalIgnoringASCIICase("a[", "A{"))   // '[' | 0x20 == '{': not letters, not equal
    }
}
