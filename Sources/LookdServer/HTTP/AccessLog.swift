import Foundation
import StableJSON
import Synchronization

/// One JSON line per request: time (UTC, ms), method, route pattern (never the raw path, which may
/// carry keys), status, response body bytes, duration in ms, request id. Never bodies, queries or headers.
/// Each line is written with one `write(2)`, so lines from different threads never interleave.
final class AccessLog: Sendable {
    private let descriptor: Int32?

    /// The log's file descriptor (nil when off), for the engine's fetch table, which writes the same lines.
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

/// The current time as `2026-11-30T10:16:43.123Z`.
func utcTimestamp(_ now: timespec = currentRealtime()) -> String {
    var seconds = now.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                  Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                  Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(now.tv_nsec / 1_000_000))
}

func currentRealtime() -> timespec {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return now
}

/// Seconds on the monotonic clock, for durations.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Request ids: 8 random hex digits fixed per process, then a counter. Unique within a run, and
/// across restarts with high probability.
final class RequestIDs: Sendable {
    private let prefix = String(format: "%08x", UInt32.random(in: .min ... .max))
    private let counter = Atomic<UInt64>(0)

    func next() -> String {
        let value = counter.add(1, ordering: .relaxed).newValue
        return prefix + String(value, radix: 16)
    }
}
