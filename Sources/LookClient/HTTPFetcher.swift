import Foundation
import Locking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP answer: status, headers (names lower-cased), body.
struct HTTPAnswer: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? { headers[name] }
}

/// Sends one GET with URLSession under a deadline of its own (the whole exchange, not only the idle time between
/// bytes, so a server that trickles its answer is cut too), cancelled with the calling task. Thread-safe.
struct HTTPFetcher: Sendable {
    let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        // The client does its own caching and revalidation: URLSession must neither cache nor answer from a cache.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
    }

    /// The answer to GET `url` with `headers`. Throws ``LookClientError``: `.timedOut` after `timeout` seconds,
    /// `.cancelled` when the task is cancelled, `.unreachable` for a transport failure (refused, reset, cut short).
    func get(_ url: URL, headers: [String: String], timeout: TimeInterval) async throws(LookClientError) -> HTTPAnswer {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let exchange = Exchange()
        let result: Result<HTTPAnswer, LookClientError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    continuation.resume(returning: Self.answer(data, response, error, timedOut: exchange.timedOut))
                }
                exchange.start(task, timeout: timeout)
            }
        } onCancel: {
            exchange.cancel()
        }
        exchange.finish()
        if Task.isCancelled, case .failure = result { throw .cancelled }
        return try result.get()
    }

    private static func answer(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?, timedOut: Bool) -> Result<HTTPAnswer, LookClientError> {
        if timedOut { return .failure(.timedOut) }
        if let error {
            let code = (error as? URLError)?.code
            if code == .cancelled { return .failure(.cancelled) }
            if code == .timedOut { return .failure(.timedOut) }
            return .failure(.unreachable(error.localizedDescription))
        }
        guard let http = response as? HTTPURLResponse else { return .failure(.unreachable("no HTTP answer")) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return .success(HTTPAnswer(status: http.statusCode, headers: headers, body: data ?? Data()))
    }
}

/// The task of one exchange and its deadline; cancelling it from another thread is safe.
private final class Exchange: @unchecked Sendable {
    private let lock = Lock()   // the package's one lock type (pthread: ThreadSanitizer sees it)
    private var task: URLSessionDataTask?
    private var deadline: Task<Void, Never>?
    private var cancelled = false
    private var expired = false

    var timedOut: Bool { lock.withLock { expired } }

    func start(_ task: URLSessionDataTask, timeout: TimeInterval) {
        let alreadyCancelled = lock.withLock {
            self.task = task
            return cancelled
        }
        if alreadyCancelled { task.cancel() }
        let deadline = Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(max(timeout, 0) * 1_000_000_000))
            guard !Task.isCancelled, let self else { return }
            self.lock.withLock { self.expired = true }
            task.cancel()
        }
        lock.withLock { self.deadline = deadline }
        task.resume()
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }

    func finish() {
        lock.withLock { deadline }?.cancel()
    }
}
