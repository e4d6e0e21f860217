import Foundation
import Synchronization

/// The change feed of a PostgreSQL store: a dedicated connection doing `LISTEN lookd_publish` on a thread of
/// its own that polls the socket. Each notification's payload (`payload(appKey:version:)`: the app key, and the version a
/// publish made current) is reported as `.app(key, version:)`.
///
/// When the connection is lost it reports `.lost` at once, reconnects with backoff (50 ms doubling to 400 ms,
/// so a database that is back is found within half a second; no restart) and then reports `.all`: notifications
/// sent while it was away were missed, so every cached app must be revalidated. It also reports `.all` on its
/// first connect (nothing is cached yet, but the order of start-up does not matter then). A quiet connection is probed with `SELECT 1` every 5 s, so a dead one is noticed even when the
/// server could not close it. Thread-safe; `start` once, `stop` once.
final class PostgresListener: Sendable {
    /// The channel every publish notifies, in its transaction.
    static let channel = "lookd_publish"

    /// A notification's payload: `<appKey> <version>` for a publish, the app key alone for a change of no known
    /// version (a draft's save). App keys contain no space.
    static func payload(appKey: String, version: Int?) -> String {
        version.map { "\(appKey) \($0)" } ?? appKey
    }

    /// The change a payload reports: `.app(key, version:)`, the version nil when the payload carries none (also a
    /// payload from a lookd that sent the app key alone, as lookd did before versions were sent).
    static func change(payload: String) -> StoreChange {
        if let space = payload.lastIndex(of: " "), let version = Int(payload[payload.index(after: space)...]) {
            return .app(String(payload[..<space]), version: version)
        }
        return .app(payload, version: nil)
    }

    private let uri: String
    private let secrets: [String]
    private let statementTimeoutMilliseconds: Int
    private let statistics: StoreStatistics
    private let onLoss: @Sendable () -> Void
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(false)

    /// `onLoss` runs (on the listener's thread) each time the connection is found lost.
    init(uri: String, secrets: [String], statementTimeoutMilliseconds: Int, statistics: StoreStatistics,
         onLoss: @escaping @Sendable () -> Void) {
        self.uri = uri
        self.secrets = secrets
        self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
        self.statistics = statistics
        self.onLoss = onLoss
    }

    /// Starts the listening thread, which calls `handler` for every change until `stop()`.
    func start(_ handler: @escaping @Sendable (StoreChange) -> Void) {
        guard !running.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in
            run(handler)
            finished.signal()
        }
        thread.name = "lookd-store-listener"
        thread.start()
    }

    /// Stops the thread (within about 200 ms) and closes its connection. Idempotent.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        if running.exchange(false, ordering: .relaxed) { _ = finished.wait(timeout: .now() + 3) }
    }

    private func run(_ handler: @Sendable (StoreChange) -> Void) {
        var failures = 0
        var everConnected = false
        while !stopped.load(ordering: .relaxed) {
            let connection: PostgresConnection
            do {
                connection = try PostgresConnection(uri: uri, timeoutSeconds: 2, statementTimeoutMilliseconds: statementTimeoutMilliseconds, secrets: secrets)
                try connection.query("LISTEN \(Self.channel)")
            } catch {
                failures += 1
                sleep(seconds: min(0.4, 0.05 * Double(1 << min(failures - 1, 10))))
                continue
            }
            if everConnected { statistics.reconnects.add(1, ordering: .relaxed) }
            everConnected = true
            failures = 0
            handler(.all)
            listen(on: connection, handler)
            connection.close()
            if !stopped.load(ordering: .relaxed) {
                handler(.lost)
                onLoss()
            }
        }
    }

    /// Polls until the connection is lost or `stop()`.
    private func listen(on connection: PostgresConnection, _ handler: @Sendable (StoreChange) -> Void) {
        var quiet = 0
        while !stopped.load(ordering: .relaxed) {
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 200)
            do {
                if ready > 0 {
                    quiet = 0
                } else {
                    quiet += 1
                    if quiet < 25 { continue }
                    quiet = 0
                    try connection.query("SELECT 1")
                }
                for payload in try connection.receiveNotifications() {
                    statistics.notifications.add(1, ordering: .relaxed)
                    handler(Self.change(payload: payload))
                }
            } catch {
                return
            }
        }
    }

    private func sleep(seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while !stopped.load(ordering: .relaxed), Date() < deadline { usleep(20_000) }
    }
}
