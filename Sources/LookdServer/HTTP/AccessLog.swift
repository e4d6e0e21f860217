import Foundation
import StableJSON

/// One JSON line per request: time (UTC, ms), method, route pattern (never the raw path, which may
/// carry keys), status, response body bytes, duration in ms, request id. Never bodies, queries or headers.
/// Each line is written with one `write(2)`, so lines from different threads never interleave.
final class AccessLog: Sendable {
    private let descriptor: Int32?

    /// The log's file descriptor (nil when off): the server asks the engine for its cached answers only when logging.
    var fileDescriptor: Int32? { descriptor }

    /// `destination`: "-" for standard output, "off" for none, or a file path (appended to).
    /// Throws a usage error when the file cannot be opened.
    init(destination: String) throws {
        switch destination {
        case "off": descriptor = nil
        case "-": descriptor = STDOUT_FILENO
        default:
            let fd = open(destination, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
            guard fd >= 0 else { throw ConfigurationError("cannot open access log \(destination)") }
            descriptor = fd
        }
    }

    func record(method: String, route: String, status: Int, bytes: Int, durationSeconds: Double, requestID: String) {
        guard let descriptor else { return }
        // Keys in the log's documented order (time first, for people reading it), written by the one JSON writer.
        var writer = JSONWriter(capacity: 192)
        writer.beginObject()
        writer.member("time", utcTimestamp())
        writer.member("method", method)
        writer.member("route", route)
        writer.key("status")
        writer.number(status)
        writer.key("bytes")
        writer.number(bytes)
        writer.key("duration_ms")
        writer.number(JSONNumber(literal: String(format: "%.3f", durationSeconds * 1000)) ?? 0)
        writer.member("request_id", requestID)
        writer.endObject()
        var bytes = writer.bytes
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeMutableBytes { buffer in
            _ = write(descriptor, buffer.baseAddress, buffer.count)
        }
    }
}

