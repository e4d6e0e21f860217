import Foundation

/// Compression on the fly of the answers that are made per request (publish, preview, lint, resolve…): br or gzip as
/// the request's Accept-Encoding prefers (RFC 9110 §12.5.3, the engine's negotiation), for a body of at least
/// `threshold` bytes in a textual media type, only for answers made on a worker (never on an event loop, where it
/// would hold up every other connection). The SDK fetch is not among them: its codings are computed once and kept
/// (docs/http-api.md, "Compression"). Pure; thread-safe.
enum OnTheFlyCompression {
    /// Smaller bodies are sent as they are: a response under a typical packet gains little, and compressing costs time.
    static let threshold = 1_024
    /// Qualities for a body compressed once per request: brotli 5 and gzip 6 make most of the gain of 11 and 9 at a
    /// fraction of their time.
    static let brotliQuality = 5
    static let gzipLevel = 6

    /// `response` in the coding `acceptEncoding` (the request's field, nil when absent) prefers, with `Content-Encoding`,
    /// and `Accept-Encoding` added to `Vary` whenever the answer was eligible (so a cache keeps the forms apart even
    /// when this one is identity). Unchanged when not eligible: a status without a body (1xx, 204, 304), a prebuilt
    /// response, a body under the threshold, a media type that is not text or JSON (or is a server-sent event stream),
    /// a response that already has a `Content-Encoding`, or one that carries an `ETag` (its route validates that one
    /// representation; a coded form would need its own tag). When the field accepts no coding at all the body is sent
    /// as identity: these answers are not worth a 406.
    static func apply(_ response: Response, acceptEncoding: String?) -> Response {
        guard response.prepared == nil, response.status >= 200, response.status != 204, response.status != 304,
              response.body.count >= threshold, compressible(field(response, "Content-Type")),
              field(response, "Content-Encoding") == nil, field(response, "ETag") == nil else { return response }
        var headers = response.headers
        if let index = headers.firstIndex(where: { equalIgnoringASCIICase($0.name, "Vary") }) {
            headers[index].value += ", Accept-Encoding"
        } else {
            headers.append(("Vary", "Accept-Encoding"))
        }
        let coding = AcceptEncoding(acceptEncoding).preferred() ?? .identity
        var body = response.body
        switch coding {
        case .identity: break
        case .br: body = Brotli.compress(response.body, quality: brotliQuality)
        case .gzip: body = Gzip.compress(response.body, level: gzipLevel)
        }
        if let token = coding.token { headers.append(("Content-Encoding", token)) }
        var coded = Response(status: response.status, headers: headers, body: body)
        coded.closeConnection = response.closeConnection
        return coded
    }

    /// Whether a media type is worth compressing: text (not `text/event-stream`, which is written as it happens), JSON and
    /// its `+json` kinds (SARIF), XML.
    static func compressible(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if type == "text/event-stream" { return false }
        return type.hasPrefix("text/") || type == "application/json" || type.hasSuffix("+json") || type.hasSuffix("/xml") || type.hasSuffix("+xml")
    }

    private static func field(_ response: Response, _ name: String) -> String? {
        response.headers.first { equalIgnoringASCIICase($0.name, name) }?.value
    }
}
