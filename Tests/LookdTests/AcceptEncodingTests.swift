@testable import LookdServer
import Testing

/// Accept-Encoding negotiation against RFC 9110 §12.5.3's own examples and rules.
@Suite("Accept-Encoding (RFC 9110 §12.5.3)", .timeLimit(.minutes(10)))
struct AcceptEncodingTests {
    /// A field value (nil: no field), the weights it gives [identity, gzip, br], and what is sent when all three exist.
    static let table: [(field: String?, weights: [Int], sent: ContentCoding?)] = [
        // The RFC's examples.
        ("compress, gzip", [1, 1000, 0], .gzip),
        ("", [1000, 0, 0], .identity),                       // "the user agent does not want any content coding"
        ("*", [1000, 1000, 1000], .br),                     // any coding; equal weights: the smallest body
        ("compress;q=0.5, gzip;q=1.0", [1, 1000, 0], .gzip),
        ("gzip;q=1.0, identity; q=0.5, *;q=0", [500, 1000, 0], .gzip),
        // "identity;q=0" or "*;q=0" without a more specific entry for identity exclude it.
        ("identity;q=0", [0, 0, 0], nil),
        ("*;q=0", [0, 0, 0], nil),
        ("*;q=0, identity", [1000, 0, 0], .identity),
        // No field: any coding would be allowed; a client that does not ask gets none.
        (nil, [1000, 0, 0], .identity),
        // What clients send.
        ("gzip, deflate, br", [1, 1000, 1000], .br),
        ("gzip, deflate, br, zstd", [1, 1000, 1000], .br),
        ("br;q=0.9, gzip", [1, 1000, 900], .gzip),
        ("gzip;q=0, *", [1000, 0, 1000], .br),
        // Codings and the q parameter's name are case-insensitive; x-gzip is gzip (§8.4.1.3).
        ("BR, GZip", [1, 1000, 1000], .br),
        ("x-gzip", [1, 1000, 0], .gzip),
        ("gzip;Q=0.5", [1, 500, 0], .gzip),
        // qvalue grammar (§12.4.2): at most three decimals, never above 1; a malformed element is ignored.
        ("gzip;q=0.125", [1, 125, 0], .gzip),
        ("gzip;q=1.000", [1, 1000, 0], .gzip),
        ("gzip;q=1.001", [1, 0, 0], .identity),
        ("gzip;q=0.0001", [1, 0, 0], .identity),
        ("gzip;q=2", [1, 0, 0], .identity),
        ("gzip;q=", [1, 0, 0], .identity),
        ("br;q=0", [1, 0, 0], .identity),
        ("identity;q=0.5, br;q=0.4", [500, 0, 400], .identity),
        // Whitespace around elements and parameters, empty elements.
        ("  br ; q=0.8 ,, gzip\t;q=0.7 ", [1, 700, 800], .br),
        // A coding named twice keeps its first weight.
        ("br;q=0.2, br", [1, 0, 200], .br),
    ]

    @Test(arguments: table.indices)
    func weightsAndChoice(_ index: Int) {
        let row = Self.table[index]
        let accept = AcceptEncoding(row.field)
        #expect(accept.weights == row.weights, "\(row.field ?? "(no field)")")
        #expect(accept.preferred() == row.sent, "\(row.field ?? "(no field)")")
    }

    @Test func onlyWhatIsAvailableIsChosen() {
        let accept = AcceptEncoding("gzip;q=1.0, identity; q=0.5, *;q=0")
        #expect(accept.preferred(among: [.identity, .br]) == .identity)
        #expect(accept.preferred(among: [.br]) == nil)
        #expect(AcceptEncoding("br").preferred(among: [.identity]) == .identity)
    }

    @Test func eachCodingHasItsOwnStrongTag() {
        // docs/http-api.md: the coding's letter in place of the "-" after the version, whatever the hash's characters.
        #expect(ContentCoding.identity.etag("\"v3-AbC-_x9Z\"") == "\"v3-AbC-_x9Z\"")
        #expect(ContentCoding.gzip.etag("\"v3-AbC-_x9Z\"") == "\"v3gAbC-_x9Z\"")
        #expect(ContentCoding.br.etag("\"v3-AbC-_x9Z\"") == "\"v3bAbC-_x9Z\"")
        #expect(ContentCoding.br.etag("\"v12--AbC-_x9\"") == "\"v12b-AbC-_x9\"")
        // A tag of another form is left as it is.
        #expect(ContentCoding.br.etag("\"x\"") == "\"x\"")
    }
}
