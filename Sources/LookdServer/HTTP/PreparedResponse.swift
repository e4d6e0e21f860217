import HTTPEngine

/// A response whose wire bytes (status line, fields, Content-Length, body) are built once and then written for
/// any number of requests without copying or allocating: what a cache keeps for a hot response (the SDK fetch
/// and its 304). The engine adds Date, X-Request-Id (not to a `shareable` one) and Connection per request.
///
/// Immutable; the wire bytes are a reference-counted C buffer, so a value may be shared by every thread.
final class PreparedResponse: Sendable {
    let status: Int
    let headers: [(name: String, value: String)]
    /// The body as the route built it (also what in-process tests read). Not sent for HEAD, 204 and 304.
    let body: [UInt8]
    // The engine's buffer. OpaquePointer is not Sendable; the buffer is immutable and atomically counted.
    nonisolated(unsafe) let wire: OpaquePointer

    /// Builds the wire bytes. Header names and values must not contain CR or LF (such fields are left out).
    /// `shareable`: a response for anyone that a shared cache may store and replay (the SDK fetch's 200 and 304),
    /// written without X-Request-Id (he_prepared_set_shareable: a cache would hand one request's id to every client).
    init(status: Int, headers: [(name: String, value: String)], body: [UInt8], shareable: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        let fields = wireFields(headers)
        let built = fields.withUnsafeBufferPointer { fieldBytes in
            body.withUnsafeBytes { bodyBytes in
                fieldBytes.withMemoryRebound(to: CChar.self) { names in
                    he_prepared_create(Int32(status), names.baseAddress, names.count, bodyBytes.baseAddress, bodyBytes.count)
                }
            }
        }
        guard let built else { fatalError("out of memory building a prepared response") }
        if shareable { he_prepared_set_shareable(built) }
        wire = built
    }

    /// Adopts `wire`, a response the engine built already (`composedResponse`) with exactly this status, these headers
    /// and this body: its one reference is released with this value. Nothing is copied: the fetch route answers a
    /// miss with the 200 it composed for the response cache (docs/benchmarks.md, run Q).
    init(adopting wire: OpaquePointer, status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
        self.wire = wire
    }

    deinit { he_prepared_release(wire) }
}

/// Header fields as `Name: value\r\n` lines. A field whose name or value holds CR, LF or NUL is left out, so a
/// value can never start a second field or end the head.
func wireFields(_ headers: [(name: String, value: String)]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 })
    for (name, value) in headers {
        if name.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 || $0 == 58 }) || value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) {
            continue
        }
        bytes.append(contentsOf: name.utf8)
        bytes.append(58)
        bytes.append(32)
        bytes.append(contentsOf: value.utf8)
        bytes.append(13)
        bytes.append(10)
    }
    return bytes
}
