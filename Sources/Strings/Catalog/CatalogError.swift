/// Why a catalog directory could not be loaded. Every case names the file.
public enum CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory does not exist or is not a directory.
    case directoryNotFound(path: String)
    /// The directory has no `en.json` (the source catalog).
    case missingSource(directory: String)
    /// A file could not be read.
    case unreadable(path: String)
    /// A file is not the JSON object its kind requires: source `{key: {message, description?, maxLength?}}`,
    /// locale `{key: pattern}`.
    case invalidContent(path: String, detail: String)

    public var description: String {
        switch self {
        case .directoryNotFound(let path): "catalog directory not found: \(path)"
        case .missingSource(let directory): "no en.json (the English source catalog) in \(directory)"
        case .unreadable(let path): "cannot read \(path)"
        case .invalidContent(let path, let detail): "\(path): \(detail)"
        }
    }
}
