import StableJSON

/// What kind of change an event records. `publish` and `rollback` today; later kinds (a draft's promote, …) are
/// new raw values, so a consumer must ignore kinds it does not know.
struct ChangeKind: RawRepresentable, Hashable, Sendable {
    var rawValue: String
    init(rawValue: String) { self.rawValue = rawValue }

    /// A new dashboard layer was published (`PUT /v1/apps/{appKey}/look`).
    static let publish = ChangeKind(rawValue: "publish")
    /// An old version was republished as the next version (`POST …/look/rollback`).
    static let rollback = ChangeKind(rawValue: "rollback")

    /// The kind of a version appended by `LookStore.publish` when the caller names none.
    static func of(rolledBackFrom: Int?) -> ChangeKind { rolledBackFrom == nil ? .publish : .rollback }
}

/// One entry of the durable change feed, written by the store in the same transaction as the version it records.
/// `seq` only grows (1, 2, …; never reused, also after compaction), and events are visible in `seq` order: an event
/// with a higher `seq` is never committed before one with a lower `seq`.
struct ChangeEvent: Sendable, Equatable {
    /// The feed position, 1 or more.
    var seq: Int64
    var appKey: String
    /// The app's version this change made current.
    var version: Int
    var kind: ChangeKind
    /// The version's ETag as a publish answers it (`"v<version>"`, quotes included).
    var etag: String
    /// When the version was published: RFC 3339 in UTC with milliseconds (`2026-11-30T10:16:43.123Z`).
    var at: String

    /// The event for `stored`, appended as `seq`.
    init(seq: Int64, appKey: String, stored: StoredVersion, kind: ChangeKind) {
        self.init(seq: seq, appKey: appKey, version: stored.version, kind: kind, etag: "\"v\(stored.version)\"", at: stored.publishedAt)
    }

    init(seq: Int64, appKey: String, version: Int, kind: ChangeKind, etag: String, at: String) {
        self.seq = seq
        self.appKey = appKey
        self.version = version
        self.kind = kind
        self.etag = etag
        self.at = at
    }

    /// The event's JSON object, keys sorted: `{"appKey","at","etag","kind","seq","version"}` — the feed's element and
    /// a webhook's body, byte for byte.
    func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("appKey", appKey)
        writer.member("at", at)
        writer.member("etag", etag)
        writer.member("kind", kind.rawValue)
        writer.key("seq")
        writer.number(Int(seq))
        writer.key("version")
        writer.number(version)
        writer.endObject()
    }

    /// The event's JSON object as UTF-8 text (`write(into:)`).
    var json: String {
        var writer = JSONWriter(capacity: 160 + appKey.utf8.count)
        write(into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// A page of the change feed as the store reads it.
struct ChangePage: Sendable, Equatable {
    /// Events with `seq` greater than the cursor, ascending, at most the limit asked for.
    var events: [ChangeEvent]
    /// The highest `seq` ever written (0: none yet).
    var latest: Int64
    /// Every event with `seq` up to this one has been compacted away (0: none). A cursor below it cannot be resumed.
    var compactedThrough: Int64
}
