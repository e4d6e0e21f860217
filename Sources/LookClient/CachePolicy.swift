import Foundation

/// How an answer may be kept, from its `Cache-Control` header (RFC 9111 §5.2.2, RFC 5861): `max-age` and
/// `stale-while-revalidate`, in seconds, and `no-store`. `no-store`, `no-cache` or no `max-age` make it stale at once;
/// `no-store` (alone or with others, as a draft's `private, no-store`) also keeps it off the disk (``DiskCache``
/// refuses it); `private` changes nothing (the client is a private cache). Negative or unreadable values count as
/// 0; values are capped at one day so a bad header cannot pin a look for ever.
struct CachePolicy: Sendable, Hashable {
    /// Seconds the answer is fresh after it was received.
    var maxAge: Int
    /// Seconds after that during which the stale answer is shown while it is revalidated in the background.
    var staleWhileRevalidate: Int
    /// The answer must never be written to disk; it is held in memory only, as the last good look of this client.
    var noStore: Bool

    static let cap = 86_400

    init(maxAge: Int, staleWhileRevalidate: Int, noStore: Bool = false) {
        self.maxAge = min(max(maxAge, 0), Self.cap)
        self.staleWhileRevalidate = min(max(staleWhileRevalidate, 0), Self.cap)
        self.noStore = noStore
    }

    /// The policy of a `Cache-Control` value (nil: no header, stale at once). Directive names are case-insensitive.
    init(cacheControl: String?) {
        var maxAge = 0, stale = 0, noCache = false, noStore = false
        for directive in (cacheControl ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first else { continue }
            let number = parts.count > 1 ? Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) ?? 0 : 0
            switch name {
            case "max-age": maxAge = number
            case "stale-while-revalidate": stale = number
            case "no-cache": noCache = true
            case "no-store": noStore = true
            default: break
            }
        }
        let stored = !noCache && !noStore
        self.init(maxAge: stored ? maxAge : 0, staleWhileRevalidate: stored ? stale : 0, noStore: noStore)
    }

    /// The delay a `Retry-After` value asks for (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, measured from
    /// `now`. nil when absent or unreadable; never negative.
    static func retryAfter(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return TimeInterval(max(seconds, 0)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: value) else { return nil }
        return max(date.timeIntervalSince(now), 0)
    }
}

/// Exponential backoff with jitter after failed fetches: after the n-th failure in a row the client waits between
/// half and all of `min(cap, base · 2^(n−1))` ("equal jitter": never zero, never in lock-step with other devices).
public struct Backoff: Sendable, Hashable {
    /// The first failure's full delay, in seconds.
    public var base: TimeInterval
    /// The longest delay, in seconds.
    public var cap: TimeInterval

    public init(base: TimeInterval = 2, cap: TimeInterval = 300) {
        self.base = max(base, 0)
        self.cap = max(cap, self.base)
    }

    /// The delay after `failures` failures in a row (0 for none); `unit` is a number in 0...1 (the jitter).
    public func delay(afterFailures failures: Int, unit: Double) -> TimeInterval {
        guard failures > 0 else { return 0 }
        let full = min(cap, base * pow(2, Double(min(failures - 1, 62))))
        return full / 2 + full / 2 * min(max(unit, 0), 1)
    }
}
