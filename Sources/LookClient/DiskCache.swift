import Foundation

/// Bounds on the client's disk cache.
public struct CacheLimits: Sendable, Hashable {
    /// The largest answer stored (bytes); a larger one is used but not stored. Default 1 MiB (an answer is ~3 KB).
    public var maxFileBytes: Int
    /// The most bytes the app's files may take together; the least recently validated languages go first.
    /// Default 4 MiB.
    public var maxTotalBytes: Int

    public init(maxFileBytes: Int = 1 << 20, maxTotalBytes: Int = 4 << 20) {
        self.maxFileBytes = max(maxFileBytes, 1)
        self.maxTotalBytes = max(maxTotalBytes, self.maxFileBytes)
    }
}

/// The app's cached answers in one directory: one file per (app, language), `look-<appKey>-<language>.cache`,
/// written atomically (a temporary file in the same directory, then a rename: a reader sees the old file or the new
/// one, never half of one). A file that cannot be used is deleted. Not thread-safe by itself: `LookClient` (an
/// actor) is its only user.
struct DiskCache: Sendable {
    let directory: URL
    let appKey: String
    let limits: CacheLimits

    /// The file of `language` (nil: the system's language).
    func url(language: String?) -> URL {
        directory.appendingPathComponent("look-\(Self.safe(appKey))-\(language.map(Self.safe) ?? "_system").cache")
    }

    /// The stored entry of `language`: `.success(nil)` when there is none, `.failure` (the file deleted) when one was
    /// there but could not be used.
    func load(language: String?) -> Result<CacheEntry?, CacheFileError> {
        let file = url(language: language)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path) else { return .success(nil) }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        do throws(CacheFileError) {
            guard size <= limits.maxFileBytes + 4_096 else { throw .tooLarge(size) }
            guard let data = FileManager.default.contents(atPath: file.path) else { throw .unreadable("cannot be read") }
            return .success(try CacheFileFormat.decode([UInt8](data), appKey: appKey))
        } catch {
            try? FileManager.default.removeItem(at: file)
            return .failure(error)
        }
    }

    /// Stores `entry` for `language` atomically, then trims the app's files to `maxTotalBytes`. Writes nothing for an
    /// answer the server marked `no-store` or a draft (the file already there, an earlier answer, stays) or one over
    /// `maxFileBytes`. Throws when the directory cannot be written (the look is still used; it is only not kept).
    func store(_ entry: CacheEntry, language: String?) throws {
        guard !entry.policy.noStore, !entry.fetched.isDraft, entry.body.count <= limits.maxFileBytes else { return }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = url(language: language)
        try Data(CacheFileFormat.encode(entry)).write(to: file, options: .atomic)
        trim(keeping: file)
    }

    /// Deletes every file of the app (and temporary files it left).
    func clear() {
        for file in files() { try? FileManager.default.removeItem(at: file.url) }
    }

    private func files() -> [(url: URL, size: Int, modified: Date)] {
        let prefix = "look-\(Self.safe(appKey))-"
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let urls = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        return urls.filter { $0.lastPathComponent.hasPrefix(prefix) }.map { url in
            let values = try? url.resourceValues(forKeys: Set(keys))
            return (url, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast)
        }
    }

    /// Deletes the oldest files but `kept` while the app's files are over `maxTotalBytes`.
    private func trim(keeping kept: URL) {
        var files = files()
        var total = files.reduce(0) { $0 + $1.size }
        guard total > limits.maxTotalBytes else { return }
        files.sort { $0.modified < $1.modified }
        for file in files where total > limits.maxTotalBytes && file.url.lastPathComponent != kept.lastPathComponent {
            try? FileManager.default.removeItem(at: file.url)
            total -= file.size
        }
    }

    /// `text` with every byte outside `[A-Za-z0-9_-]` as `%XX`, so a name is always one safe path component.
    static func safe(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out.isEmpty ? "%" : out
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
