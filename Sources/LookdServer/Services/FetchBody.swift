import FNV
import Locking
import StableJSON

/// The SDK fetch's body, `{"appKey","dashboard","direction","locale","look","publishedAt","texts","version"}` (keys
/// sorted), cut into what every language of an app version shares and what is a language's own:
///
///     {"appKey":…,"dashboard":…,   "direction":…,"locale":…,   "look":…,"publishedAt":…,   "texts":…,   "version":N}
///     └──────── head ───────────┘  └──── language.before ────┘  └─────── middle ───────┘  └─ after ─┘  └─ tail ──┘
///
/// `join` makes the body of them; a copy kept elsewhere may reference the app version's shared pieces (one copy per
/// version) and hold only its language's two pieces (the HTTP edge does so in the engine: it writes the runs in order).
/// Either gives the same bytes as one `JSONWriter` writing the whole object (compact layout). `Sendable`.
enum FetchBody {
    /// The pieces every language of an app version shares: `bytes` is head, middle and tail; `cut1` ends the head and
    /// `cut2` the middle (byte offsets).
    struct Shared: Sendable {
        var bytes: [UInt8]
        var cut1: Int
        var cut2: Int
        /// `FNV1a64.hash(bytes)`, computed once per app version: a language's tag continues it over the language's own
        /// pieces (`tagHash`), so a build hashes ~0.4 KB instead of the whole ~3.3 KB body (the body's hash was 10% of
        /// the cold spread's samples, docs/benchmarks.md, run H).
        var hash: UInt64
        /// What the HTTP edge derives from these pieces (in the daemon: the engine's one copy of them per app version,
        /// which the responses it caches reference), kept once made and shared by every copy of this value.
        let edge = LazySlot()

        init(bytes: [UInt8], cut1: Int, cut2: Int) {
            self.bytes = bytes
            self.cut1 = cut1
            self.cut2 = cut2
            hash = FNV1a64.hash(bytes)
        }
    }

    /// The hash a response's ETag carries: FNV-1a 64 over the shared pieces, then the language's own pieces. Equal
    /// bodies have equal pieces (the cuts are fixed by the JSON's members), hence equal tags.
    static func tagHash(_ shared: Shared, _ language: Language) -> UInt64 {
        FNV1a64.hash(language.bytes, from: shared.hash)
    }

    /// A language's own pieces: `bytes[..<cut]` go after the head, `bytes[cut...]` after the middle.
    struct Language: Sendable {
        var bytes: [UInt8]
        var cut: Int
    }

    /// The shared pieces of an app version.
    /// - Parameters:
    ///   - layer: the stored dashboard layer (canonical JSON text), embedded as it is.
    ///   - lookJSON: the resolved look's stable JSON bytes, embedded as they are.
    static func shared(appKey: String, layer: String, lookJSON: [UInt8], publishedAt: String, version: Int) -> Shared {
        // {"appKey":…,"dashboard":…}  →  without its closing brace, with a comma.
        var head = members { writer in
            writer.member("appKey", appKey)
            writer.key("dashboard")
            writer.raw(layer.utf8)
        }
        head.insert(UInt8(ascii: "{"), at: 0)
        head.append(UInt8(ascii: ","))
        var middle = members { writer in
            writer.key("look")
            writer.raw(lookJSON)
            writer.member("publishedAt", publishedAt)
        }
        middle.append(UInt8(ascii: ","))
        var tail = members { writer in
            writer.key("version")
            writer.number(version)
        }
        tail.append(UInt8(ascii: "}"))
        return Shared(bytes: head + middle + tail, cut1: head.count, cut2: head.count + middle.count)
    }

    /// A language's pieces: `"direction":…,"locale":…,` and `"texts":…,`, where `texts` writes the texts object's value.
    static func language(direction: String, locale: String, texts: (inout JSONWriter) -> Void) -> Language {
        // One writer for both pieces (two writers and their copies and join were ~5,000 of the ~51,500 instructions a
        // fill spent on each language: docs/benchmarks.md, run S): `{"direction":…,"locale":…,"texts":…}` without its
        // `{`, and a comma for its `}`, is exactly the two pieces, the writer's comma before "texts" ending the first.
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.member(static: "direction", direction)
        writer.member(static: "locale", locale)
        let cut = writer.count   // the `{` dropped, and the comma written next kept: the first piece's length
        writer.key(static: "texts")
        texts(&writer)
        writer.endObject()
        var bytes = writer.bytes
        bytes.removeFirst()
        bytes[bytes.count - 1] = UInt8(ascii: ",")
        return Language(bytes: bytes, cut: cut)
    }

    /// The whole body: head, the language's first piece, middle, its second piece, tail.
    static func join(_ shared: Shared, _ language: Language) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(shared.bytes.count + language.bytes.count)
        body += shared.bytes[..<shared.cut1]
        body += language.bytes[..<language.cut]
        body += shared.bytes[shared.cut1..<shared.cut2]
        body += language.bytes[language.cut...]
        body += shared.bytes[shared.cut2...]
        return body
    }

    /// The members `write` writes inside an object, without the object's braces (compact layout, so the bytes between
    /// the braces are exactly the members and their commas).
    private static func members(_ write: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        write(&writer)
        writer.endObject()
        let bytes = writer.bytes
        return Array(bytes[1..<(bytes.count - 1)])
    }
}
