import Foundation

/// One webhook receiver (`--webhook URL`). Its id — the first 16 hex digits of the SHA-256 of its URL — names it in
/// the store and in `Lookd-Delivery`, so every replica configured with the same URL shares its deliveries.
struct WebhookReceiver: Sendable, Equatable {
    var url: String
    var id: String { String(Crypto.hex(Crypto.sha256(Array(url.utf8))).prefix(16)) }
}

/// The webhook deliverer's settings (`lookd serve --webhook URL … --webhook-secret-file FILE`).
struct WebhookConfiguration: Sendable {
    var receivers: [WebhookReceiver]
    /// The signing secret's bytes (the secret file's first line, trimmed; at least 16 bytes).
    var secret: [UInt8]
    /// Most deliveries in flight to one receiver at once, over all replicas (1 or more).
    var concurrency = 4
    /// One attempt's deadline: connecting, sending and the answer, seconds.
    var timeoutSeconds = 10.0
    /// How long a replica holds a delivery it attempts; a holder that dies loses it after this. Longer than the timeout.
    var leaseMilliseconds: Int64 = 30_000
    /// Retries stop this long after the event (at least 24 hours; default 48).
    var retryWindowSeconds: Int64 = 48 * 3600
    /// The first retry's delay and the largest, seconds; doubled per attempt, each with ±25 % jitter.
    var firstRetrySeconds = 1.0
    var longestRetrySeconds = 3600.0
    /// With no notification, the deliverer looks for due retries this often, seconds.
    var pollSeconds = 1.0

    init(receivers: [WebhookReceiver], secret: [UInt8]) {
        self.receivers = receivers
        self.secret = secret
    }

    /// Reads `--webhook` URLs and the secret file. Throws a ConfigurationError for a URL that is not absolute
    /// `http://` or `https://`, a repeated URL, a missing or unreadable secret file, or a secret under 16 bytes.
    static func load(urls: [String], secretFile: String?) throws -> WebhookConfiguration? {
        guard !urls.isEmpty else {
            if secretFile != nil { throw ConfigurationError("--webhook-secret-file needs at least one --webhook URL") }
            return nil
        }
        for url in urls {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host?.isEmpty == false else {
                throw ConfigurationError("--webhook needs an absolute http:// or https:// URL, got \(url)")
            }
        }
        guard Set(urls).count == urls.count else { throw ConfigurationError("--webhook: the same URL is given twice") }
        guard let secretFile else { throw ConfigurationError("--webhook needs --webhook-secret-file (the signing secret)") }
        guard let data = FileManager.default.contents(atPath: secretFile) else {
            throw ConfigurationError("cannot read --webhook-secret-file \(secretFile)")
        }
        let secret = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard secret.utf8.count >= 16 else { throw ConfigurationError("the webhook secret in \(secretFile) must be at least 16 characters") }
        return WebhookConfiguration(receivers: urls.map { WebhookReceiver(url: $0) }, secret: Array(secret.utf8))
    }

    /// The delay before retry number `attempts + 1`: `firstRetrySeconds · 2^attempts`, at most `longestRetrySeconds`,
    /// times a random factor in 0.75…1.25 (so receivers coming back are not hit by every replica at once).
    func retryDelaySeconds(afterAttempts attempts: Int) -> Double {
        let base = min(longestRetrySeconds, firstRetrySeconds * pow(2, Double(min(attempts, 30))))
        return base * Double.random(in: 0.75...1.25)
    }
}
