import FNV
import Testing

/// The expected values are the published FNV-1a 64-bit test vectors (the FNV authors' test suite, reproduced in
/// draft-eastlake-fnv), not this code's output.
@Suite("FNV-1a 64: the published test vectors", .timeLimit(.minutes(10)))
struct FNV1a64Tests {
    @Test(arguments: [
        ("", "cbf29ce484222325"),
        ("a", "af63dc4c8601ec8c"),
        ("foobar", "85944171f73967e8"),
    ])
    func publishedVectors(input: String, expected: String) {
        #expect(FNV1a64.hex(Array(input.utf8)) == expected)
        #expect(FNV1a64.hash(input.utf8) == UInt64(expected, radix: 16))
    }

    @Test func hashingInPiecesEqualsHashingTheWhole() {
        let whole = Array("foobar".utf8)
        #expect(FNV1a64.hash(whole[3...], from: FNV1a64.hash(whole[..<3])) == FNV1a64.hash(whole))
    }

    @Test func hexKeepsLeadingZeros() throws {
        // Every hash is written as 16 digits; scan a few inputs for one whose hash is below 2^60 (its first digit 0).
        let input = try #require((0..<4096).lazy.map { Array(String($0).utf8) }.first { FNV1a64.hash($0) < (1 << 60) })
        #expect(FNV1a64.hex(input).count == 16)
        #expect(FNV1a64.hex(input).hasPrefix("0"))
    }
}
