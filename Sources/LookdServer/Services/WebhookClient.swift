import Locking
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// POSTs one webhook request with a deadline (URLSession; one session per receiver, at most `concurrency` connections).
/// Thread-safe: `post` may be called from several threads at once.
final class WebhookClient: Sendable {
    private let session: URLSession
    private let timeoutSeconds: Double

    /// What an attempt ended with.
    enum Answer: Sendable, Equatable {
        /// The receiver answered with this status.
        case status(Int)
        /// No answer: a timeout, a refused or reset connection, a bad URL. The reason, for the record.
        case failed(String)
    }

    init(concurrency: Int, timeoutSeconds: Double) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeoutSeconds
        configuration.timeoutIntervalForResource = timeoutSeconds
        configuration.httpMaximumConnectionsPerHost = max(1, concurrency)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
        self.timeoutSeconds = timeoutSeconds
    }

    /// POSTs `body` as `application/json` with `headers` to `url`; returns within about `timeoutSeconds`.
    func post(url: String, headers: [(String, String)], body: [UInt8]) -> Answer {
        guard let target = URL(string: url) else { return .failed("not a URL: \(url)") }
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeoutSeconds)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("lookd/\(lookdVersion)", forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let result = LockedValue<Answer?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { _, response, error in
            let answer: Answer
            if let status = (response as? HTTPURLResponse)?.statusCode {
                answer = .status(status)
            } else {
                answer = .failed(error.map { "\($0.localizedDescription)" } ?? "no answer")
            }
            result.withLock { $0 = answer }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeoutSeconds + 2) == .timedOut {
            task.cancel()
            return .failed("no answer within \(timeoutSeconds) s")
        }
        return result.withLock { $0 } ?? .failed("no answer")
    }

    /// Stops the session (in-flight requests are cancelled).
    func close() { session.invalidateAndCancel() }
}
