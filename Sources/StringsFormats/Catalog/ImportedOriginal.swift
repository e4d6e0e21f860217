import Foundation

/// The files a String Catalog or Android import read, kept beside the catalogs in `imported/FORMAT/`
/// (`imported/xcstrings/Localizable.xcstrings`, `imported/android/values-de/strings.xml`, …): what lookd's
/// catalogs cannot hold (states, extraction states, specifier spelling, `translatable="false"` strings,
/// `<xliff:g>`, comments, `string-array`s, device variations, …) is carried there, and an export in the same
/// format lays the catalogs onto it (`CatalogFormat.write(_:onto:)`), so import then export gives back the same
/// files. Delete the folder to export lookd's own layout. Only each format's string files are kept (for Android,
/// `values*/strings.xml`). Not thread-safe against other writers of the same folder.
public enum ImportedOriginal {
    /// The folder under the catalogs: `imported`.
    public static let folderName = "imported"

    /// `DIRECTORY/imported/FORMAT`.
    public static func folder(in directory: URL, format: String) -> URL {
        directory.appendingPathComponent(folderName).appendingPathComponent(format)
    }

    /// The files of `input` worth keeping for `format`: Android's `values*/strings.xml`, a one-file format's
    /// file (named `name`, the file the import read).
    public static func keptFiles(_ input: FormatFiles, format: String, name: String) -> FormatFiles {
        if let single = input.single { return FormatFiles([name: single]) }
        return FormatFiles(input.files.filter { path, _ in
            let parts = path.split(separator: "/")
            return parts.count >= 2 && parts[parts.count - 1] == "strings.xml" && parts[parts.count - 2].hasPrefix("values")
        })
    }

    /// Replaces `DIRECTORY/imported/FORMAT` with `files`. Throws on I/O errors.
    public static func save(_ files: FormatFiles, in directory: URL, format: String) throws {
        let folder = folder(in: directory, format: format)
        if FileManager.default.fileExists(atPath: folder.path) { try FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try files.write(to: folder.path)
    }

    /// The kept files for `format`, nil when there are none. A one-file format's file comes back as the single
    /// file. Throws when the folder exists but cannot be read.
    public static func load(in directory: URL, format: String) throws -> FormatFiles? {
        let folder = folder(in: directory, format: format)
        guard FileManager.default.fileExists(atPath: folder.path) else { return nil }
        let files = try FormatFiles.load(path: folder.path)
        guard !files.files.isEmpty else { return nil }
        if format == "xcstrings", files.files.count == 1, let only = files.files.values.first { return FormatFiles(["": only]) }
        return files
    }
}
