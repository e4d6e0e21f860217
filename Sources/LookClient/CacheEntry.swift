import FNV
import Foundation
import StableJSON

/// One stored fetch answer: the body as received, what it decodes to, its entity tag, when the server last
/// confirmed it and for how long that holds. Thread-safe: a value type.
struct CacheEntry: Sendable {
    var body: [UInt8]
    var fetched: FetchedLook
    /// The answer's `ETag` (sent back as `If-None-Match`), if it had one.
    var etag: String?
    /// When the server last answered 200 or 304 for these bytes (wall clock).
    var validatedAt: Date
    var policy: CachePolicy

    /// Seconds since the server last confirmed the bytes; negative when the clock went back.
    func age(at now: Date) -> TimeInterval { now.timeIntervalSince(validatedAt) }

    /// Fresh: younger than max-age (and the clock has not gone back).
    func isFresh(at now: Date) -> Bool {
        let age = age(at: now)
        return age >= 0 && age < TimeInterval(policy.maxAge)
    }

    /// Stale but inside stale-while-revalidate: shown at once while it is revalidated in the background.
    func mayServeStale(at now: Date) -> Bool {
        let age = age(at: now)
        return age >= 0 && age < TimeInterval(policy.maxAge + policy.staleWhileRevalidate)
    }
}

/// The cache file's format, version 1:
///
///     lookd-client-cache 1\n
///     {"appKey":…,"bodyBytes":N,"checksum":"<16 hex>","etag":…,"maxAge":S,"staleWhileRevalidate":S,"validatedAt":MS}\n
///     <the answer's body, N bytes>
///
/// `checksum` is a 64-bit FNV-1a of the body; `validatedAt` is milliseconds since 1970. A reader refuses any other
/// first line (another format version, or not a cache file), a header that is not that JSON, a body of another
/// length or checksum, or a body that is not a published fetch answer for the app (a draft never is stored).
enum CacheFileFormat {
    static let version = 1
    static let magic = "lookd-client-cache "

    static func encode(_ entry: CacheEntry) -> [UInt8] {
        var header: [String: JSONValue] = [
            "appKey": .string(entry.fetched.appKey),
            "bodyBytes": .number(JSONNumber(entry.body.count)),
            "checksum": .string(checksum(entry.body)),
            "maxAge": .number(JSONNumber(entry.policy.maxAge)),
            "staleWhileRevalidate": .number(JSONNumber(entry.policy.staleWhileRevalidate)),
            "validatedAt": .number(JSONNumber(Int((entry.validatedAt.timeIntervalSince1970 * 1000).rounded()))),
        ]
        header["etag"] = entry.etag.map(JSONValue.string) ?? .null
        return Array("\(magic)\(version)\n".utf8) + JSONWriter.bytes(.object(header)) + [UInt8(ascii: "\n")] + entry.body
    }

    /// The entry in `bytes`, for `appKey`. Throws ``CacheFileError`` saying why the file cannot be used.
    static func decode(_ bytes: [UInt8], appKey: String) throws(CacheFileError) -> CacheEntry {
        guard let firstEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) else { throw .unreadable("no header line") }
        let first = String(decoding: bytes[..<firstEnd], as: UTF8.self)
        guard first.hasPrefix(magic) else { throw .unreadable("not a lookd client cache file") }
        guard let version = Int(first.dropFirst(magic.count)) else { throw .unreadable("no format version") }
        guard version == Self.version else { throw .otherFormat(version) }
        let rest = bytes[(firstEnd + 1)...]
        guard let headerEnd = rest.firstIndex(of: UInt8(ascii: "\n")) else { throw .unreadable("truncated header") }
        guard let header = try? JSONReader.read(rest[..<headerEnd]),
              let length = header["bodyBytes"]?.intValue, let sum = header["checksum"]?.stringValue,
              let maxAge = header["maxAge"]?.intValue, let stale = header["staleWhileRevalidate"]?.intValue,
              let validatedAt = header["validatedAt"]?.intValue, let storedKey = header["appKey"]?.stringValue else {
            throw .unreadable("malformed header")
        }
        let body = Array(rest[(headerEnd + 1)...])
        guard body.count == length else { throw .unreadable("body of \(body.count) bytes, \(length) expected (truncated?)") }
        guard checksum(body) == sum else { throw .unreadable("checksum mismatch (corrupted)") }
        guard storedKey == appKey else { throw .unreadable("stored for another app") }
        let fetched: FetchedLook
        do {
            fetched = try FetchedLook(json: body)
        } catch {
            throw .unreadable("body: \(error.message)")
        }
        guard fetched.appKey == appKey else { throw .unreadable("body is another app's") }
        guard !fetched.isDraft else { throw .unreadable("a draft (drafts are never cached)") }
        return CacheEntry(body: body, fetched: fetched, etag: header["etag"]?.stringValue,
                          validatedAt: Date(timeIntervalSince1970: TimeInterval(validatedAt) / 1000),
                          policy: CachePolicy(maxAge: maxAge, staleWhileRevalidate: stale))
    }

    /// 64-bit FNV-1a over the bytes, as 16 lower-case hex digits. Detects corruption, not tampering.
    static func checksum(_ bytes: [UInt8]) -> String { FNV1a64.hex(bytes) }
}

/// Why a cache file was not used (and was deleted).
enum CacheFileError: Error, Sendable, Hashable {
    /// Truncated, corrupted, not a cache file, or not this app's.
    case unreadable(String)
    /// Written by another version of the format (a newer client, say).
    case otherFormat(Int)
    /// Larger than the cache's per-file bound.
    case tooLarge(Int)

    var message: String {
        switch self {
        case .unreadable(let reason): reason
        case .otherFormat(let version): "format version \(version), this client reads \(CacheFileFormat.version)"
        case .tooLarge(let bytes): "\(bytes) bytes, over the per-file bound"
        }
    }
}
