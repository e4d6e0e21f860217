@testable import LookdServer
import Testing

/// The fetch's entity tag spells 48 bits of the body's hash in base64url (docs/http-api.md). Expected values by hand:
/// FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c (draft-eastlake-fnv's test vectors); folded, 0xdc4c8601ec8c ^ 0xaf63 =
/// 0xdc4c860143ef, whose six bytes are "3EyGAUPv" in RFC 4648 §5's alphabet; all ones fold to 0xffffffff0000.
@Suite("FetchTag", .timeLimit(.minutes(10)))
struct FetchTagTests {
    @Test func spellsTheFoldedHashInBase64url() {
        #expect(FetchTag.make(version: 3, hash: 0xaf63_dc4c_8601_ec8c) == "\"v3-3EyGAUPv\"")
        #expect(FetchTag.make(version: 1, hash: .max) == "\"v1-_____wAA\"")
        #expect(FetchTag.make(version: 12, hash: 0) == "\"v12-AAAAAAAA\"")
        #expect(EntityTag.version(FetchTag.make(version: 987_654_321, hash: 0x0123_4567_89ab_cdef)) == 987_654_321)
    }
}
