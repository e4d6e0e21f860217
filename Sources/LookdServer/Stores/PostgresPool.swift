import Dispatch
import Locking
import Synchronization

/// A bounded pool of PostgreSQL connections (`--store-connections`): at most `limit` are open, an operation
/// waits up to `acquireTimeoutSeconds` for one, idle ones are reused — no connection per request.
///
/// When the database is unreachable, connecting is retried with exponential backoff (50 ms doubling to 1 s);
/// while backing off, operations fail at once with StoreError `08006` (for the services: `StoreUnavailableError`) instead of each waiting
/// for a connect timeout. A connection found broken is closed, and the next successful connect counts as a
/// reconnect. A reused idle connection that turns out dead before any statement of an operation ran (the
/// server restarted while it sat idle) is replaced and the operation retried once — safe, since nothing ran.
/// Thread-safe.
final class PostgresPool: Sendable {
    private struct Backoff {
        var failures = 0
        var retryAt: ContinuousClock.Instant?
        /// A connection was lost or failed since the last successful connect.
        var lost = false
    }

    let limit: Int
    private let uri: String
    private let secrets: [String]
    private let statementTimeoutMilliseconds: Int
    private let acquireTimeoutSeconds: Double
    private let slots: DispatchSemaphore
    private let idle = LockedValue<[PostgresConnection]>([])
    private let backoff = LockedValue(Backoff())
    private let closed = Atomic<Bool>(false)
    private let statistics: StoreStatistics

    /// A pool for `uri` of at most `limit` (1 or more) connections. Connects lazily. `secrets` are scrubbed
    /// from error messages; `statementTimeoutMilliseconds` bounds every statement (0: no bound) and also how
    /// long an operation waits for a free connection.
    init(uri: String, secrets: [String], limit: Int, statementTimeoutMilliseconds: Int, statistics: StoreStatistics) {
        self.uri = uri
        self.secrets = secrets
        self.limit = max(1, limit)
        self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
        acquireTimeoutSeconds = statementTimeoutMilliseconds > 0 ? Double(statementTimeoutMilliseconds) / 1000 : 30
        slots = DispatchSemaphore(value: self.limit)
        self.statistics = statistics
        statistics.connectionsLimit.store(self.limit, ordering: .relaxed)
    }

    /// Runs `body` with a connection of its own (timed in the store latency). Throws what `body` throws, or
    /// StoreError when no connection can be had (`53300` all busy, `08006` unreachable or closed).
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try statistics.timed {
            guard !closed.load(ordering: .relaxed) else { throw StoreError(sqlstate: PostgresConnection.connectionFailure, message: "the store is closed") }
            guard slots.wait(timeout: .now() + acquireTimeoutSeconds) == .success else {
                throw StoreError(sqlstate: "53300", message: "all \(limit) store connections are busy")
            }
            statistics.connectionsInUse.add(1, ordering: .relaxed)
            defer {
                statistics.connectionsInUse.subtract(1, ordering: .relaxed)
                slots.signal()
            }
            var (connection, reused) = try checkout()
            while true {
                let before = connection.succeeded
                do {
                    let value = try body(connection)
                    checkin(connection)
                    return value
                } catch let error as StoreError {
                    guard !connection.isUsable else {
                        checkin(connection)
                        throw error
                    }
                    connection.close()
                    backoff.withLock { $0.lost = true }
                    guard reused, connection.succeeded == before else { throw error }
                    (connection, reused) = (try connect(), false)
                } catch {
                    checkin(connection)
                    throw error
                }
            }
        }
    }

    /// Closes the idle connections (the listener lost the database: they are most likely dead too).
    func discardIdle() {
        let dropped = idle.withLock { idle in
            defer { idle.removeAll() }
            return idle
        }
        dropped.forEach { $0.close() }
        if !dropped.isEmpty { backoff.withLock { $0.lost = true } }
    }

    /// Closes every idle connection and refuses new operations; connections in use close when returned.
    func close() {
        closed.store(true, ordering: .relaxed)
        discardIdle()
    }

    private func checkout() throws -> (PostgresConnection, reused: Bool) {
        if let reused = idle.withLock({ $0.popLast() }) { return (reused, true) }
        return (try connect(), false)
    }

    private func checkin(_ connection: PostgresConnection) {
        guard connection.isUsable, !closed.load(ordering: .relaxed) else {
            connection.close()
            return
        }
        idle.withLock { $0.append(connection) }
    }

    private func connect() throws -> PostgresConnection {
        let clock = ContinuousClock()
        if let retryAt = backoff.withLock({ $0.retryAt }), clock.now < retryAt {
            throw StoreError(sqlstate: PostgresConnection.connectionFailure, message: "the database is unreachable; reconnecting with backoff")
        }
        do {
            let connection = try PostgresConnection(uri: uri, timeoutSeconds: 2, statementTimeoutMilliseconds: statementTimeoutMilliseconds, secrets: secrets)
            let wasLost = backoff.withLock { state in
                defer { state = Backoff() }
                return state.lost || state.failures > 0
            }
            if wasLost { statistics.reconnects.add(1, ordering: .relaxed) }
            return connection
        } catch {
            backoff.withLock { state in
                state.failures += 1
                state.lost = true
                let delay = min(1.0, 0.05 * Double(1 << min(state.failures - 1, 10)))
                state.retryAt = clock.now + .milliseconds(Int(delay * 1000))
            }
            throw error
        }
    }
}
