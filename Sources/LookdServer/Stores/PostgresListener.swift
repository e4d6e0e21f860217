import Foundation
import Synchronization

/// The change feed of a PostgreSQL store: a dedicated connection doing `LISTEN lookd_publish` on a thread of
/// its own that polls the socket. Each notification's payload (an app key) is reported as `.app(key)`.
///
/// When the connection is lost it reconnects with backoff (100 ms doubling to 2 s, no restart) and then
/// reports `.all`: notifications sent while it was away were missed, so every cached look is stale. It also
/// reports `.all` on its first connect (nothing is cached yet, but the order of start-up does not matter
/// then). A quiet connection is probed with `SELECT 1` every 5 s, so a dead one is noticed even when the
/// server could not close it. Thread-safe; `start` once, `stop` once.
final class PostgresListener: Sendable {
    /// The channel every publish notifies, in its transaction.
    static let channel = "lookd_publish"

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
                sleep(seconds: min(2.0, 0.1 * Double(1 << min(failures - 1, 10))))
                continue
            }
            if everConnected { statistics.reconnects.add(1, ordering: .relaxed) }
            everConnected = true
            failures = 0
            handler(.all)
            listen(on: connection, handler)
            connection.close()
            if !stopped.load(ordering: .relaxed) { onLoss() }
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
                    handler(.app(payload))
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
