import Foundation
import LookResolver
import StableJSON

/// The SDK core's side of the look fetch (docs/client.md): fetches the app's published look with `?lang=`, revalidates
/// it with `If-None-Match`, keeps it on disk, merges the app's code and inferred layers under it with the same
/// resolver as the server, and says when a publish reached the device.
///
/// Guarantees: ``look(language:)`` always returns a look — fresh, cached (the last good one) or built-in — with a
/// clear error value when the server could not give a newer one; creating a client sends nothing; a fresh cached
/// look is returned without a request; a stale one within `stale-while-revalidate` is returned at once and
/// revalidated in the background; concurrent callers share one request; a version is never replaced by an older one;
/// after a failure the client waits (exponential backoff with jitter, or the server's `Retry-After`) instead of
/// blocking callers again.
///
/// An actor: every method is safe to call from any task.
public actor LookClient {
    /// Tuning. The defaults suit an app.
    public struct Configuration: Sendable {
        /// The whole exchange's deadline, in seconds (connect, send, wait, receive). Default 10.
        public var requestTimeout: TimeInterval = 10
        /// Waiting after failed fetches. Default: 2 s doubling to 5 minutes, with jitter.
        public var backoff = Backoff()
        /// The longest `Retry-After` honoured, in seconds. Default one hour.
        public var maxRetryAfter: TimeInterval = 3_600
        public var cacheLimits = CacheLimits()
        /// Sent as `Accept-Language` when a look is asked for without a language (the system's languages, most
        /// preferred first). Default: none (the server then answers English).
        public var preferredLanguages: [String] = []
        /// The wall clock (tests move it). Default `Date()`.
        public var clock: @Sendable () -> Date = { Date() }
        /// The jitter's random number in 0...1. Default uniform.
        public var jitter: @Sendable () -> Double = { Double.random(in: 0...1) }

        public init() {}
    }

    /// A stored answer with its merged look and texts, computed once.
    private struct Held {
        var entry: CacheEntry
        var look: ResolvedLook
        var texts: LookTexts
        /// The `validatedAt` the cache file holds.
        var persistedValidation: Date
    }

    /// A 304 rewrites the cache file only when the file's validation time is at least this many seconds old (or the
    /// policy changed): a cold start then sees the look at most this much older than it is, and revalidating does
    /// not cost a file write every time.
    static let revalidationPersistInterval: TimeInterval = 5

    private enum Attempt {
        /// A 200 was stored; `changed` when its tag differs from what was held.
        case stored(changed: Bool)
        case notModified
        case failed(LookClientError)
    }

    /// The server's base URL (`https://lookd.example.com`).
    public nonisolated let server: URL
    /// The app key, `pk_live_…` or `pk_test_…`.
    public nonisolated let appKey: String
    /// The app's code and inferred layers, merged under the dashboard's.
    public nonisolated let layers: AppLayers
    /// The `lookChanged` event: yields once each time a newer look is stored for a language (not for the first fetch
    /// of a language that showed nothing before; yes when it replaces a built-in look that was returned).
    public nonisolated let changes: AsyncStream<LookChange>

    private let continuation: AsyncStream<LookChange>.Continuation
    let configuration: Configuration
    private let disk: DiskCache?
    /// Made on the first request: a client that only reads its cache never makes a URLSession.
    lazy var fetcher = HTTPFetcher()

    private var held: [String?: Held] = [:]
    private var readFromDisk: Set<String?> = []
    private var discarded: [String?: String] = [:]
    private var inFlight: [String?: Task<Attempt, Never>] = [:]
    private var lastError: [String?: LookClientError] = [:]
    private var servedBuiltIn: Set<String?> = []
    private var builtIn: ResolvedLook?
    private var failures = 0
    private var backoffUntil: Date?
    private var retryAfterUntil: Date?
    /// The language of the last ``look(language:)`` or ``refresh(language:)``: what a config push refreshes.
    private var currentLanguage: String?
    /// The preview token in use (``setPreviewToken(_:)``): while set, looks are the app's draft.
    public internal(set) var previewToken: String?
    /// Grows on ``clear()``: an answer to a request sent before it is dropped.
    private var generation = 0

    /// A client for one app. Sends nothing and reads nothing until a look is asked for.
    /// - Parameters:
    ///   - server: the lookd (or CDN) base URL.
    ///   - appKey: the app key.
    ///   - cache: the directory for the cache files (created when first written); nil keeps answers in memory only.
    ///     An SDK passes a folder of its own under the Caches directory.
    ///   - layers: the app's code and inferred layers.
    public init(server: URL, appKey: String, cache: URL?, layers: AppLayers = AppLayers(), configuration: Configuration = Configuration()) {
        self.server = server
        self.appKey = appKey
        self.layers = layers
        self.configuration = configuration
        disk = cache.map { DiskCache(directory: $0, appKey: appKey, limits: configuration.cacheLimits) }
        (changes, continuation) = AsyncStream.makeStream(of: LookChange.self, bufferingPolicy: .bufferingNewest(16))
    }

    deinit { continuation.finish() }

    /// The look for `language` (a BCP 47 tag, the app's language picker; nil follows ``Configuration/preferredLanguages``).
    ///
    /// Fresh cached look: returned, no request. Stale within `stale-while-revalidate`: returned at once, revalidated in
    /// the background. Otherwise (nothing cached, or too old): one request, shared with concurrent callers; on failure
    /// the cached look or the built-in one, with ``ClientLook/error``. While the client waits after failures
    /// (backoff, `Retry-After`) no request is made and the caller is not blocked.
    ///
    /// With a preview token set (``setPreviewToken(_:)``), the app's draft instead: see ``draftLook(_:token:)``.
    public func look(language: String? = nil) async -> ClientLook {
        currentLanguage = language
        if let previewToken { return await draftLook(language, token: previewToken) }
        let now = configuration.clock()
        if let held = held(language) {
            if held.entry.isFresh(at: now) { return answer(held, language, .cache, error: lastError[language]) }
            if held.entry.mayServeStale(at: now) {
                revalidateInBackground(language)
                return answer(held, language, .cache, error: lastError[language])
            }
        }
        if let until = waitingUntil(now, honoringBackoff: true) {
            return fallback(language, error: lastError[language] ?? .backingOff(until: until))
        }
        return await outcome(of: fetch(language), language)
    }

    /// Revalidates `language`'s look with the server now, even when the cached one is fresh (a 304 keeps the cached
    /// bytes), and returns the result as ``look(language:)`` does. Honours a server's `Retry-After`, not the backoff.
    /// With a preview token set, the draft, as ``look(language:)`` gives it.
    public func refresh(language: String? = nil) async -> ClientLook {
        currentLanguage = language
        if let previewToken { return await draftLook(language, token: previewToken) }
        if let until = waitingUntil(configuration.clock(), honoringBackoff: false) {
            return fallback(language, error: .backingOff(until: until))
        }
        return await outcome(of: fetch(language), language)
    }

    /// Handles a silent config push for the language last asked for: `.noData` with no request when the pushed
    /// version is not newer than the cached one (or the push is another app's); else a revalidation: `.newData` when a
    /// newer look was stored, `.noData` when the server had nothing newer, `.failed` when it failed.
    public func handleConfigPush(_ push: ConfigPush) async -> ConfigPushResult {
        if let key = push.appKey, key != appKey { return .noData }
        let language = currentLanguage
        if let version = push.version, let held = held(language), version <= held.entry.fetched.version { return .noData }
        if waitingUntil(configuration.clock(), honoringBackoff: false) != nil { return .failed }
        switch await fetch(language) {
        case .stored(let changed): return changed ? .newData : .noData
        case .notModified: return .noData
        case .failed: return .failed
        }
    }

    /// The built-in look: the app's layers over the defaults, as on a first launch with no network.
    public func builtInLook() -> ClientLook {
        ClientLook(look: builtInResolved(), texts: nil, version: nil, locale: nil, source: .builtIn, age: nil)
    }

    /// Shows the app's draft instead of its published look: `token` is a preview token (docs/preview.md), e.g. the
    /// `preview` of a chat link (``previewToken(in:)``); nil goes back to the published look. While it is set,
    /// ``look(language:)`` and ``refresh(language:)`` fetch the draft with the token in a `Lookd-Preview` header on
    /// every call. A draft is never written to disk, never held, never replaces the published look and never
    /// yields on ``changes``; config pushes keep the published look current meanwhile. A token the server refuses
    /// (403 `preview_token_invalid`: expired, revoked, superseded by a newer draft) is forgotten.
    public func setPreviewToken(_ token: String?) {
        previewToken = token.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The preview token of a chat link (`https://app.example/…?pingfront=chat&preview=pv1.…`): its `preview` query
    /// value, or nil when it has none (or an empty one).
    public nonisolated static func previewToken(in link: URL) -> String? {
        let items = URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard let token = items.first(where: { $0.name == "preview" })?.value, !token.isEmpty else { return nil }
        return token
    }

    /// Forgets everything: the cache files of this app, what is held in memory, waits after failures, the preview
    /// token. Requests in flight are cancelled and their answers dropped. (A logout.)
    public func clear() {
        generation += 1
        previewToken = nil
        for task in inFlight.values { task.cancel() }
        inFlight = [:]
        held = [:]
        readFromDisk = []
        discarded = [:]
        lastError = [:]
        servedBuiltIn = []
        failures = 0
        backoffUntil = nil
        retryAfterUntil = nil
        disk?.clear()
    }

    // MARK: - State

    /// What is held for `language`, read from disk the first time (a file that cannot be used is deleted).
    private func held(_ language: String?) -> Held? {
        if let known = held[language] { return known }
        guard let disk, !readFromDisk.contains(language) else { return nil }
        readFromDisk.insert(language)
        switch disk.load(language: language) {
        case .success(let entry?):
            let held = hold(entry)
            self.held[language] = held
            return held
        case .success(nil):
            return nil
        case .failure(let error):
            discarded[language] = error.message
            return nil
        }
    }

    private func hold(_ entry: CacheEntry) -> Held {
        let look = LookMerge.resolve(dashboard: entry.fetched.dashboard, layers: layers)
        return Held(entry: entry, look: look, texts: LookMerge.texts(of: look, answer: entry.fetched), persistedValidation: entry.validatedAt)
    }

    private func builtInResolved() -> ResolvedLook {
        if let builtIn { return builtIn }
        let look = LookMerge.resolve(dashboard: nil, layers: layers)
        builtIn = look
        return look
    }

    /// When the client may next send a request, if that is after `now`.
    func waitingUntil(_ now: Date, honoringBackoff: Bool) -> Date? {
        let limits = [retryAfterUntil, honoringBackoff ? backoffUntil : nil].compactMap { $0 }.filter { $0 > now }
        return limits.max()
    }

    private func answer(_ held: Held, _ language: String?, _ source: LookSource, error: LookClientError?) -> ClientLook {
        let age = max(0, held.entry.age(at: configuration.clock()))
        return ClientLook(look: held.look, texts: held.texts, version: held.entry.fetched.version, locale: held.entry.fetched.locale,
                          source: source, age: age, error: error, discardedCache: discarded[language])
    }

    /// The held look with `error`, else the built-in one.
    func fallback(_ language: String?, error: LookClientError) -> ClientLook {
        if let held = held(language) { return answer(held, language, .cache, error: error) }
        servedBuiltIn.insert(language)
        var look = builtInLook()
        look.error = error
        look.discardedCache = discarded[language]
        return look
    }

    private func outcome(of attempt: Attempt, _ language: String?) -> ClientLook {
        switch attempt {
        case .stored:
            if let held = held(language) { return answer(held, language, .network, error: nil) }
            return fallback(language, error: .cancelled)
        case .notModified:
            if let held = held(language) { return answer(held, language, .cache, error: nil) }
            return fallback(language, error: .cancelled)
        case .failed(let error):
            return fallback(language, error: error)
        }
    }

    // MARK: - Fetching

    private func revalidateInBackground(_ language: String?) {
        guard inFlight[language] == nil, waitingUntil(configuration.clock(), honoringBackoff: true) == nil else { return }
        _ = startFetch(language)
    }

    /// The result of the request for `language` in flight, or of a new one. A cancelled caller cancels it.
    private func fetch(_ language: String?) async -> Attempt {
        let task = inFlight[language] ?? startFetch(language)
        return await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    }

    private func startFetch(_ language: String?) -> Task<Attempt, Never> {
        let task = Task { await self.perform(language, generation: generation) }
        inFlight[language] = task
        return task
    }

    private func perform(_ language: String?, generation started: Int) async -> Attempt {
        defer { if generation == started { inFlight[language] = nil } }
        let sentTag = held(language)?.entry.etag
        var headers = requestHeaders(language)
        if let sentTag { headers["If-None-Match"] = sentTag }
        let answer: HTTPAnswer
        let fetcher = self.fetcher
        do {
            answer = try await fetcher.get(url(language), headers: headers, timeout: configuration.requestTimeout)
        } catch {
            return generation == started ? failed(error, language) : .failed(.cancelled)
        }
        guard generation == started else { return .failed(.cancelled) }
        let now = configuration.clock()
        switch answer.status {
        case 200:
            return store(answer, language, now: now)
        case 304:
            guard let sentTag, var current = held(language), current.entry.etag == sentTag else { return failed(.unexpectedNotModified, language) }
            if let tag = answer.header("etag"), tag != sentTag { return failed(.unexpectedNotModified, language) }
            var policy = CachePolicy(cacheControl: answer.header("cache-control"))
            // Bytes that came as no-store stay off the disk, whatever a later 304 says.
            policy.noStore = policy.noStore || current.entry.policy.noStore
            let persist = policy != current.entry.policy || now.timeIntervalSince(current.persistedValidation) >= Self.revalidationPersistInterval
            current.entry.validatedAt = now
            current.entry.policy = policy
            if persist, (try? disk?.store(current.entry, language: language)) != nil { current.persistedValidation = now }
            held[language] = current
            succeeded(language)
            return .notModified
        default:
            return failed(statusError(answer, now: now), language)
        }
    }

    /// The headers of a look request: JSON, and the preferred languages when no language is named.
    func requestHeaders(_ language: String?) -> [String: String] {
        var headers = ["Accept": "application/json"]
        if language == nil, !configuration.preferredLanguages.isEmpty {
            headers["Accept-Language"] = configuration.preferredLanguages.joined(separator: ", ")
        }
        return headers
    }

    /// The error of an answer that is neither 200 nor 304: a 429 or 503 with `Retry-After` sets the wait (capped at
    /// ``Configuration/maxRetryAfter``) and is `.rateLimited`; anything else is `.status` with its JSON error code.
    func statusError(_ answer: HTTPAnswer, now: Date) -> LookClientError {
        if answer.status == 429 || answer.status == 503, let seconds = CachePolicy.retryAfter(answer.header("retry-after"), now: now) {
            let wait = min(seconds, configuration.maxRetryAfter)
            retryAfterUntil = now.addingTimeInterval(wait)
            return .rateLimited(status: answer.status, retryAfter: wait)
        }
        return .status(answer.status, code: Self.errorCode(answer.body))
    }

    private func store(_ answer: HTTPAnswer, _ language: String?, now: Date) -> Attempt {
        let body = [UInt8](answer.body)
        let fetched: FetchedLook
        do {
            fetched = try FetchedLook(json: body)
        } catch {
            return failed(.invalidAnswer(error.message), language)
        }
        guard fetched.appKey == appKey else { return failed(.invalidAnswer("the answer is for another app"), language) }
        // A draft answered without a preview token (a cache in between that mixed them up) never replaces the published look.
        guard !fetched.isDraft else { return failed(.invalidAnswer("a draft answered a request without a preview token"), language) }
        let previous = held(language)
        if let previous, fetched.version < previous.entry.fetched.version {
            // A stale edge: not a failure of the server, so no backoff; the newer look stays.
            let error = LookClientError.olderVersion(received: fetched.version, kept: previous.entry.fetched.version)
            lastError[language] = error
            return .failed(error)
        }
        let entry = CacheEntry(body: body, fetched: fetched, etag: answer.header("etag"), validatedAt: now,
                               policy: CachePolicy(cacheControl: answer.header("cache-control")))
        let changed = previous?.entry.etag != entry.etag || previous?.entry.body != body
        if changed {
            held[language] = hold(entry)
        } else {
            held[language]?.entry = entry
            held[language]?.persistedValidation = now
        }
        try? disk?.store(entry, language: language)
        succeeded(language)
        if changed && (previous != nil || servedBuiltIn.contains(language)) {
            continuation.yield(LookChange(language: language, version: fetched.version, previousVersion: previous?.entry.fetched.version))
        }
        servedBuiltIn.remove(language)
        return .stored(changed: changed)
    }

    private func succeeded(_ language: String?) {
        failures = 0
        backoffUntil = nil
        lastError[language] = nil
    }

    /// Records a failure: the error for `language`, and the next backoff (not for a cancellation).
    private func failed(_ error: LookClientError, _ language: String?) -> Attempt {
        lastError[language] = error
        if error != .cancelled {
            failures += 1
            let delay = configuration.backoff.delay(afterFailures: failures, unit: configuration.jitter())
            backoffUntil = configuration.clock().addingTimeInterval(delay)
        }
        return .failed(error)
    }

    nonisolated func url(_ language: String?) -> URL {
        var components = URLComponents(url: server.appendingPathComponent("v1/apps/\(appKey)/look"), resolvingAgainstBaseURL: false)
        if let language { components?.queryItems = [URLQueryItem(name: "lang", value: language)] }
        return components?.url ?? server
    }

    /// `error.code` of a JSON error body, if there is one.
    static func errorCode(_ body: Data) -> String? {
        (try? JSONReader.read([UInt8](body)))?["error"]?["code"]?.stringValue
    }
}
