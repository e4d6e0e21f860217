import HTTPEngine

/// The engine's response cache (docs/http.md, "The engine's response cache"): request target (the decoded path and
/// the raw query) plus the request fields an entry varies on → a prepared 200 and 304, which the event loops answer
/// `GET` and `HEAD` from themselves, without building a request or calling a route. Entries are purged by tag (the
/// look service tags an app's entries with its app key, as a CDN's surrogate keys do). It knows HTTP only.
///
/// Coherence: whoever fills it purges it. Read `generation` before computing a response and pass it to `put`; a put
/// is refused when any purge happened in between, and when `purge` returns no loop answers from a purged entry.
/// Every answer is counted with its own duration (`stats`, folded into /metrics); the server writes its access log
/// line through a hook. Bounded by `capacityBytes` (entries evicted by CLOCK). Thread-safe (the engine's per-shard
/// locks).
final class EngineResponseCache: Sendable {
    // The engine's cache. OpaquePointer is not Sendable; every access goes through the engine's locks.
    nonisolated(unsafe) let cache: OpaquePointer
    /// The most bytes entries take (of `Limits.cacheBytes`; the look cache has the rest).
    let capacityBytes: Int
    /// The route patterns answers are counted and logged under, by label index.
    let labels: [String]
    /// The histogram's upper bounds in seconds (Metrics.buckets).
    let bounds: [Double]
    /// The request fields entries vary on (bit 0: `Lookd-Preview`, a preview token, which asks for the app's draft:
    /// every entry is put to answer only requests without it).
    static let varyNames = "Lookd-Preview"

    /// `labels`: route patterns (at most 8) an entry names by index. `bounds`: the duration histogram's bounds.
    init(capacityBytes: Int, labels: [String], bounds: [Double]) {
        precondition(labels.count <= Int(HE_CACHE_LABELS) && bounds.count <= Int(HE_CACHE_BUCKETS_MAX))
        self.capacityBytes = capacityBytes
        self.labels = labels
        self.bounds = bounds
        guard let created = he_response_cache_create(max(0, capacityBytes), Self.varyNames, bounds, bounds.count) else {
            fatalError("out of memory creating the response cache")
        }
        cache = created
    }

    deinit { he_response_cache_destroy(cache) }

    /// The purge count; read it before computing a response and pass it to `put`.
    var generation: UInt64 { UInt64(he_response_cache_generation(cache)) }

    /// Keeps the answers for `target` (the decoded path, then `?` and the raw query when there is one), tagged `tag`,
    /// counted under `labels[label]`: `ok`, or the 304 when If-None-Match matches `etag` — `notModified`, or when it is
    /// nil a 304 with the header fields `notModifiedFields` (`wireFields`), which the engine writes from a run of `ok`'s
    /// head when they are one (nothing composed for it). Returns false when refused (a purge since `generation`, a
    /// string over 4 KiB, over the capacity).
    /// `offered`: the codings the application makes for this target (identity always); `coded`: the representations
    /// held in other codings, each with its own tag (see he_cache_entry: a request whose chosen coding is offered but
    /// not held goes to the routes).
    @discardableResult
    func put(generation: UInt64, target: String, tag: String, etag: String, label: Int, ok: OpaquePointer, notModified: OpaquePointer?,
             notModifiedFields: [UInt8] = [], offered: [ContentCoding] = [.identity],
             coded: [(coding: ContentCoding, etag: String, ok: OpaquePointer, notModified: OpaquePointer)] = []) -> Bool {
        var target = target, tag = tag, etag = etag
        // The 304's fields and the coded tags' bytes must stay alive during the call: one buffer, pointed into.
        let strings = notModifiedFields + coded.flatMap { Array($0.etag.utf8) }
        return target.withUTF8 { target in
            tag.withUTF8 { tag in
                etag.withUTF8 { etag in
                    target.withMemoryRebound(to: CChar.self) { target in
                        tag.withMemoryRebound(to: CChar.self) { tag in
                            etag.withMemoryRebound(to: CChar.self) { etag in
                                var entry = he_cache_entry()
                                entry.target = target.baseAddress
                                entry.target_len = target.count
                                entry.tag = tag.baseAddress
                                entry.tag_len = tag.count
                                entry.etag = etag.baseAddress
                                entry.etag_len = etag.count
                                entry.label = Int32(label)
                                entry.vary_mask = 1   // answers only requests without Lookd-Preview (vary_values[0] nil)
                                entry.ok = ok
                                entry.not_modified = notModified
                                entry.offered = offered.reduce(0) { $0 | (1 << UInt32($1.rawValue)) }
                                return strings.withUnsafeBufferPointer { strings in
                                    strings.withMemoryRebound(to: CChar.self) { strings in
                                        entry.not_modified_fields = strings.baseAddress
                                        entry.not_modified_fields_len = notModifiedFields.count
                                        var offset = notModifiedFields.count
                                        withUnsafeMutableBytes(of: &entry.coded) { raw in
                                            let variants = raw.bindMemory(to: he_cache_variant.self)
                                            for variant in coded where variant.coding != .identity {
                                                let length = variant.etag.utf8.count
                                                variants[variant.coding.rawValue] = he_cache_variant(ok: variant.ok, not_modified: variant.notModified,
                                                                                                     etag: strings.baseAddress.map { $0 + offset }, etag_len: length,
                                                                                                     not_modified_fields: nil, not_modified_fields_len: 0)
                                                offset += length
                                            }
                                        }
                                        return he_response_cache_put(cache, CUnsignedLongLong(generation), &entry) == 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Drops the entries tagged `tag` (every entry when nil) and refuses puts that read the generation before.
    func purge(tag: String?) {
        guard var tag else {
            he_response_cache_purge(cache, nil, 0)
            return
        }
        tag.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { he_response_cache_purge(cache, $0.baseAddress, $0.count) }
        }
    }

    /// Refuses puts that read the generation before, dropping nothing: `purge` without its walk over every entry, for
    /// a caller that knows it holds no entry of the tag it drops.
    func refusePuts() {
        he_response_cache_refuse_puts(cache)
    }

    /// The entries held and the bytes they count.
    var usage: (entries: Int, bytes: Int) {
        var entries = 0, bytes = 0
        he_response_cache_usage(cache, &entries, &bytes)
        return (entries, bytes)
    }

    /// Answers so far: per (route label, method, status) a count; the duration histogram's bucket counts (one per
    /// bound and one above them); the summed durations in seconds.
    var stats: (counts: [(route: String, method: String, status: Int, count: UInt64)], buckets: [UInt64], seconds: Double) {
        let labelCount = Int(HE_CACHE_LABELS)
        var flat = [CUnsignedLongLong](repeating: 0, count: labelCount * 4)
        var buckets = [CUnsignedLongLong](repeating: 0, count: bounds.count + 1)
        var seconds = 0.0
        flat.withUnsafeMutableBytes { raw in
            // counts[label][method][status], laid out as label-major rows of 2 × 2.
            let rows = raw.baseAddress!.assumingMemoryBound(to: ((CUnsignedLongLong, CUnsignedLongLong), (CUnsignedLongLong, CUnsignedLongLong)).self)
            buckets.withUnsafeMutableBufferPointer { he_response_cache_stats(cache, rows, $0.baseAddress, &seconds) }
        }
        var counts: [(route: String, method: String, status: Int, count: UInt64)] = []
        for (label, route) in labels.enumerated() {
            for (method, methodName) in ["GET", "HEAD"].enumerated() {
                for (status, code) in [200, 304].enumerated() {
                    let count = UInt64(flat[label * 4 + method * 2 + status])
                    if count > 0 { counts.append((route, methodName, code, count)) }
                }
            }
        }
        return (counts, buckets.map { UInt64($0) }, seconds)
    }
}

/// Immutable bytes the engine shares between composed responses (he_prepared_bytes): a look's shared body pieces,
/// referenced by each language's response instead of copied into it. Thread-safe (immutable, atomically counted).
final class EngineBytes: Sendable {
    // The engine's value. OpaquePointer is not Sendable; the value is immutable.
    nonisolated(unsafe) let value: OpaquePointer
    let count: Int

    init(_ bytes: [UInt8]) {
        guard let made = bytes.withUnsafeBytes({ he_prepared_bytes($0.baseAddress, $0.count) }) else { fatalError("out of memory") }
        value = made
        count = bytes.count
    }

    deinit { he_prepared_release(value) }
}

/// The start of a head that many composed responses share (he_head_prefix): a status line and header fields, kept
/// once and referenced by each (`composedResponse`'s `prefix`). Thread-safe (immutable, atomically counted).
final class EngineHeadPrefix: Sendable {
    // The engine's value. OpaquePointer is not Sendable; the value is immutable.
    nonisolated(unsafe) let value: OpaquePointer

    /// `status` (100…999) and the header fields `headers` (as `wireFields`).
    init(status: Int, headers: [(name: String, value: String)]) {
        let fields = wireFields(headers)
        let made = fields.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { he_head_prefix(Int32(status), $0.baseAddress, $0.count) }
        }
        guard let made else { fatalError("out of memory (or a status out of range) making a head prefix") }
        value = made
    }

    deinit { he_prepared_release(value) }
}

/// A run of a composed response's body: bytes of an `EngineBytes`, or bytes of its own.
enum BodyRun {
    case shared(EngineBytes, Range<Int>)
    case own([UInt8])
}

/// Builds an engine response (one reference, released by the caller) whose body is `runs` joined: shared runs are
/// referenced (all of one `EngineBytes`), own runs copied. Header fields and `shareable` as for PreparedResponse. With
/// `prefix`, its head is the prefix's (referenced: its status line and fields; `status` is ignored) and then `headers`,
/// written exactly as if the prefix's fields were listed first.
func composedResponse(status: Int, headers: [(name: String, value: String)], runs: [BodyRun], shareable: Bool = false,
                      prefix: EngineHeadPrefix? = nil) -> OpaquePointer {
    composedResponse(status: status, fields: wireFields(headers), runs: runs, shareable: shareable, prefix: prefix)
}

/// `composedResponse` with its header fields already as wire bytes (`wireFields`), for a caller that needs them twice.
func composedResponse(status: Int, fields: [UInt8], runs: [BodyRun], shareable: Bool = false, prefix: EngineHeadPrefix? = nil) -> OpaquePointer {
    // Own runs' bytes must stay alive during the call: keep them in one array and point into it.
    var own: [UInt8] = []
    own.reserveCapacity(runs.reduce(0) { if case .own(let bytes) = $1 { $0 + bytes.count } else { $0 } })
    for case .own(let bytes) in runs { own += bytes }
    let built = fields.withUnsafeBufferPointer { fieldBytes in
        own.withUnsafeBytes { ownBytes in
            var offset = 0
            let parts = runs.map { run -> he_body_part in
                switch run {
                case .shared(let bytes, let range):
                    return he_body_part(shared: bytes.value, offset: range.lowerBound, bytes: nil, length: range.count)
                case .own(let bytes):
                    defer { offset += bytes.count }
                    return he_body_part(shared: nil, offset: 0, bytes: ownBytes.baseAddress.map { $0 + offset }, length: bytes.count)
                }
            }
            return fieldBytes.withMemoryRebound(to: CChar.self) { names in
                if let prefix { return he_prepared_create_prefixed(prefix.value, names.baseAddress, names.count, parts, parts.count) }
                return he_prepared_create_parts(Int32(status), names.baseAddress, names.count, parts, parts.count)
            }
        }
    }
    guard let built else { fatalError("out of memory building a composed response") }
    if shareable { he_prepared_set_shareable(built) }
    return built
}
