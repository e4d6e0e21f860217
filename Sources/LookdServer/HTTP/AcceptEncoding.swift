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

    /// The letter that stands for this coding in a fetch tag (`FetchTag`), nil for identity.
    var tagLetter: UInt8? {
        switch self {
        case .identity: return nil
        case .gzip: return UInt8(ascii: "g")
        case .br: return UInt8(ascii: "b")
        }
    }

    /// This coding's strong ETag for the representation whose identity tag is `etag` (`FetchTag`, `"v3-AbC-_x9Z"`):
    /// the same tag for identity, the coding's letter in place of the `-` after the version for the others
    /// (`"v3bAbC-_x9Z"`, `"v3gAbC-_x9Z"`) — each coding of the same bytes is its own representation (RFC 9110 §8.8.3),
    /// and every tag still names the version it came from. A tag of another form is returned as it is.
    func etag(_ etag: String) -> String {
        guard let tagLetter else { return etag }
        var bytes = Array(etag.utf8)
        guard bytes.count > 3, bytes[0] == UInt8(ascii: "\""), bytes[1] == UInt8(ascii: "v"),
              let separator = bytes[2...].firstIndex(where: { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              separator > 2, bytes[separator] == UInt8(ascii: "-") else { return etag }
        bytes[separator] = tagLetter
        return String(decoding: bytes, as: UTF8.self)
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
