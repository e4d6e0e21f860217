import HTTPEngine

/// Entity tags and the conditional request headers (RFC 9110 §8.8.3, §13.1.1, §13.1.2).
enum EntityTag {
    /// The members of an `If-Match` / `If-None-Match` value: `["*"]`, or entity tags as sent (quotes and `W/` kept).
    /// Nil when the value is not a well-formed list: an entity tag is `"…"` or `W/"…"` with no `"`, control
    /// character or space inside, and members are separated by commas with optional whitespace.
    static func list(_ value: String) -> [String]? {
        let bytes = Array(value.utf8)
        var index = 0
        func skipSpace() { while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 } }
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "*") {
            index += 1
            skipSpace()
            return index == bytes.count ? ["*"] : nil
        }
        var tags: [String] = []
        while true {
            skipSpace()
            // An empty member (",,") is allowed by the list syntax and ignored.
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if index == bytes.count { break }
            let start = index
            if bytes[index] == UInt8(ascii: "W"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") { index += 2 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                let byte = bytes[index]
                guard byte == 0x21 || (0x23...0x7E).contains(byte) || byte >= 0x80 else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            index += 1
            tags.append(String(decoding: bytes[start..<index], as: UTF8.self))
            skipSpace()
            guard index == bytes.count || bytes[index] == UInt8(ascii: ",") else { return nil }
        }
        return tags.isEmpty ? nil : tags
    }

    /// Whether `If-None-Match: value` matches the representation's `etag` (quotes included) by RFC 9110 §13.1.2:
    /// the engine's rule (`he_if_none_match`), the one the engine's response cache answers by too. `*` alone, or a
    /// list with a member equal to `etag` by the weak comparison (`W/"x"` matches `"x"`); nil or a malformed value
    /// matches nothing. Pass every If-None-Match field line of the request joined with ", " (`Request.fieldList`).
    static func noneMatchHolds(_ value: String?, etag: String) -> Bool {
        guard var value else { return false }
        var etag = etag
        return value.withUTF8 { field in
            etag.withUTF8 { tag in
                field.withMemoryRebound(to: CChar.self) { field in
                    tag.withMemoryRebound(to: CChar.self) { tag in
                        he_if_none_match(field.baseAddress, field.count, tag.baseAddress, tag.count) == 1
                    }
                }
            }
        }
    }

    /// The version a strong tag of ours names: `"v12"`, or a fetch's tag in any coding (`FetchTag`: `"v12-AbC-_x9Z"`,
    /// `"v12bAbC-_x9Z"`, `"v12gAbC-_x9Z"`), or the identity fetch tag lookd sent before that form,
    /// `"v12-<16 lower-case hex digits>"` → 12. Nil for any other tag, including weak ones, `"v012"` (versions have
    /// no leading zero) and `"v0"`.
    static func version(_ tag: String) -> Int? {
        let bytes = Array(tag.utf8)
        guard bytes.count >= 4, bytes[0] == UInt8(ascii: "\""), bytes[1] == UInt8(ascii: "v"), bytes.last == UInt8(ascii: "\"") else { return nil }
        let inner = bytes[2..<(bytes.count - 1)]
        let digits = inner.prefix(while: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        guard let first = digits.first, first != UInt8(ascii: "0"), digits.count <= 9 else { return nil }
        let rest = inner[digits.endIndex...]
        if let separator = rest.first {
            let hash = rest.dropFirst()
            let current = ContentCoding.allCases.contains { ($0.tagLetter ?? UInt8(ascii: "-")) == separator }
                && hash.count == FetchTag.hashLength && hash.allSatisfy(FetchTag.base64url.contains)
            let before = separator == UInt8(ascii: "-") && hash.count == 16
                && hash.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
            guard current || before else { return nil }
        }
        return Int(String(decoding: digits, as: UTF8.self))
    }
}
