import Foundation

/// The files of an export or import, by path relative to the output (`values-ar/strings.xml`); a one-file
/// format (String Catalog, XLIFF) uses the empty path for the file itself. A value type.
public struct FormatFiles: Sendable, Hashable {
    public var files: [String: [UInt8]]

    public init(_ files: [String: [UInt8]] = [:]) { self.files = files }

    /// The one file of a one-file format.
    public var single: [UInt8]? { files[""] }

    /// Reads `path`: a file becomes the single file, a directory every regular file below it (hidden ones
    /// skipped) whose relative path `including` accepts (default: all). Throws `CocoaError` when nothing can be
    /// read there.
    public static func load(path: String, including: (String) -> Bool = { _ in true }) throws -> FormatFiles {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        guard isDirectory.boolValue else { return FormatFiles(["": [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))]) }
        var files: [String: [UInt8]] = [:]
        let root = URL(fileURLWithPath: path)
        for case let relative as String in FileManager.default.enumerator(atPath: path) ?? FileManager.DirectoryEnumerator() {
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }), including(relative) else { continue }
            var isFolder: ObjCBool = false
            let url = root.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = [UInt8](try Data(contentsOf: url))
            }
        }
        return FormatFiles(files)
    }

    /// Writes the files under `path` (the single file at `path` itself), creating folders. Throws on I/O errors.
    public func write(to path: String) throws {
        for (relative, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let url = relative.isEmpty ? URL(fileURLWithPath: path) : URL(fileURLWithPath: path).appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url, options: .atomic)
        }
    }
}
