import Locking
import Foundation
@testable import LookdServer
import Strings
import Synchronization

/// The daemon's routes and services over a temporary SQLite store, called in process: no socket, no process,
/// no waiting. The HTTP engine's own checks (framing, byte limits, timeouts) are not in this path; the live
/// tests cover them.
final class InProcessApp: @unchecked Sendable {
    let directory: TemporaryDirectory
    /// The store the services use (tests read and write it directly; the routes reach it only through the services).
    let store: any LookStore
    let services: AppServices
    let router: Router

    /// The catalogs are read once for every in-process app.
    static let localizer: Localizer = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        do {
            return try Localizer(directory: root.appendingPathComponent("Resources/Localizations"))
        } catch {
            fatalError("cannot read the catalogs: \(error)")
        }
    }()

    /// An app with an empty store (in `directory`/data) and, unless `token` is nil, the test admin token. `makeStore`
    /// opens the store in the directory it is given (default: an SQLite store).
    init(token: String? = adminToken, limits: Limits = Limits(), storeBusyTimeoutMilliseconds: Int32 = 5000,
         feedToken: String? = nil, webhooks: WebhookConfiguration? = nil, makeStore: ((String) throws -> any LookStore)? = nil) throws {
        directory = try TemporaryDirectory()
        let path = directory.path + "/data"
        let store = try makeStore?(path) ?? SQLiteLookStore(directory: path, busyTimeoutMilliseconds: storeBusyTimeoutMilliseconds)
        self.store = store
        services = AppServices(store: store, metrics: Metrics(), limits: limits, auth: AdminAuth(token: token), localizer: Self.localizer,
                               feed: FeedConfiguration(auth: FeedAuth(token: feedToken)), webhooks: webhooks)
        router = Routes.router(services)
        try services.startBackground()
    }

    deinit {
        services.stopBackground()
        services.closeStore()
    }

    /// Answers one request as the server would after reading it: route match, handler, error mapping.
    /// `target` is a path with an optional query (`/v1/strings?lang=de`), percent-encoded as on the wire.
    func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
                 admin: Bool = false, json: Bool = true) throws -> HTTPResult {
        var allHeaders = headers
        if admin { allHeaders.append(("Authorization", "Bearer \(adminToken)")) }
        if body != nil && json { allHeaders.append(("Content-Type", "application/json")) }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        let query: [(name: String, value: String)] = parts.count < 2 ? [] : parts[1].split(separator: "&").map { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in String(text).removingPercentEncoding ?? String(text) }
            return (decode(pair[0]), pair.count > 1 ? decode(pair[1]) : "")
        }
        var request = Request(method: method, path: path, query: query, headers: allHeaders.map { (name: $0.0, value: $0.1) },
                              body: body ?? [])
        let response: Response
        switch router.match(method: method, path: path) {
        case .found(let route, let parameters):
            request.parameters = parameters
            do {
                response = try route.handler(request)
            } catch let park as ParkRequest {
                // As the server does: the handler answers later, from another thread. Waits at most 70 s (a long-poll's
                // 60 s and a margin), then answers 500 so a test that never gets its answer fails instead of hanging.
                let answered = LockedValue<Response?>(nil)
                let done = DispatchSemaphore(value: 0)
                park.start(ParkedAnswer { answer in
                    answered.withLock { $0 = answer }
                    done.signal()
                })
                _ = done.wait(timeout: .now() + 70)
                response = answered.withLock { $0 } ?? HTTPError.internalError("the parked request was never answered").response
            } catch let error as HTTPError {
                response = error.response
            } catch {
                response = HTTPError.internalError("\(error)").response
            }
        case .wrongMethod(let allowed, _):
            response = HTTPError.methodNotAllowed(allowed).response
        case .notFound:
            response = HTTPError.routeUnknown(path).response
        }
        return HTTPResult(status: response.status, headers: response.headers, body: method == "HEAD" ? [] : response.body,
                          closed: response.closeConnection)
    }

    func get(_ target: String, headers: [(String, String)] = [], admin: Bool = false) throws -> HTTPResult {
        try request("GET", target, headers: headers, admin: admin)
    }
}

/// A new valid live app key, made in process.
func newKey(test: Bool = false) -> String { AppKey.generate(live: !test) }
