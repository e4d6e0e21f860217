import HTTPEngine

/// A content coding lookd sends (RFC 9110 §8.4.1). The raw values are the engine's `HE_CODING_*`.
enum ContentCoding: Int, CaseIterable, Sendable {
    case identity = 0
    case gzip = 1
    case br = 2

    /// The token for `Content-Encoding` (nil for identity, which is never sent).
    var token: String? {
        switch self {
        case .identity: return nil
        case .gzip: return "gzip"
        case .br: return "br"
        }
    }

    /// This coding's strong ETag for the representation whose identity tag is `etag` (a quoted tag, `"…"`): the same
    /// tag for identity, `"…-gzip"` or `"…-br"` for the others — each coding of the same bytes is its own
    /// representation (RFC 9110 §8.8.3), and every tag still names the version it came from.
    func etag(_ etag: String) -> String {
        guard let token, etag.hasSuffix("\""), etag.utf8.count >= 2 else { return etag }
        return String(etag.dropLast()) + "-" + token + "\""
    }
}

/// What a request's `Accept-Encoding` accepts (RFC 9110 §12.5.3): the weight of each coding, through the engine's
/// negotiation (`he_accept_encoding`), so that the routes and the engine's response cache decide alike.
/// No field: identity only. A value value type; thread-safe.
struct AcceptEncoding: Sendable, Equatable {
    /// Weight per coding in thousandths (0…1000; 0: not acceptable), indexed by `ContentCoding.rawValue`.
    let weights: [Int]

    /// The weights a field value gives (nil: the request has no Accept-Encoding field).
    init(_ field: String?) {
        var weights = [Int32](repeating: 0, count: Int(HE_CODINGS))
        var value = field ?? ""
        value.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { he_accept_encoding($0.baseAddress, $0.count, field == nil ? 0 : 1, &weights) }
        }
        self.weights = weights.map(Int.init)
    }

    /// The weight of `coding`, 0…1000.
    func weight(_ coding: ContentCoding) -> Int { weights[coding.rawValue] }

    /// The coding to send among `available`: the highest weight above 0, equal weights going to br, then gzip, then
    /// identity. nil when none of them is acceptable.
    func preferred(among available: [ContentCoding] = ContentCoding.allCases) -> ContentCoding? {
        let mask = available.reduce(UInt32(0)) { $0 | (1 << UInt32($1.rawValue)) }
        return weights.map(Int32.init).withUnsafeBufferPointer { ContentCoding(rawValue: Int(he_choose_coding($0.baseAddress, mask))) }
    }
}
