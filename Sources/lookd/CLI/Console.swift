import Foundation

/// Writes to standard output and standard error.
enum Console {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    static func write(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }

    /// Reads a whole file, or standard input for `-`. Throws a usage error naming the path.
    static func read(path: String) throws -> Data {
        if path == "-" {
            return FileHandle.standardInput.readDataToEndOfFile()
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("cannot read \(path)")
        }
        return data
    }
}
