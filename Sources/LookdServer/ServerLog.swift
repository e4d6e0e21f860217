import Foundation

/// The daemon's own messages (start, stop, store failures, unexpected errors), one line each on standard error.
/// Requests are logged by `AccessLog`, not here. Thread-safe: each line is one `write(2)`.
enum ServerLog {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
