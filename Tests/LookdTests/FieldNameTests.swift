import Testing
@testable import LookdServer

@Suite("Field names, byte-wise", .timeLimit(.minutes(10)))
struct FieldNameTests {
    @Test func fieldNamesCompareIgnoringASCIICaseOnly() {
        let request = Request(method: "GET", path: "/", headers: [("IF-NONE-match", "x"), ("X-A_b", "y")])
        #expect(request.header("if-none-match") == "x")
        #expect(request.header("x-a_B") == "y")
        #expect(request.header("x-a\u{7F}b") == nil)
        #expect(request.header("if-none-matc") == nil)
        #expect(!equalIgnoringASCIICase("a[", "A{"))   // '[' | 0x20 == '{': not letters, not equal
        let repeated = Request(method: "GET", path: "/", headers: [("If-None-Match", "\"a\""), ("if-none-match", "\"b\"")])
        #expect(repeated.fieldList("If-None-Match") == "\"a\", \"b\"")
        #expect(repeated.fieldList("accept") == nil)
    }
}
