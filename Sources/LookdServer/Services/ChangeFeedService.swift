import Locking
import Foundation
import Synchronization

/// One page of the change feed as a consumer gets it.
struct FeedPage: Sendable, Equatable {
    /// Events after the cursor, ascending by `seq`.
    var events: [ChangeEvent]
    /// The cursor to resume from: the last event's `seq`, or the cursor asked with when there was none.
    var next: Int64
}

/// Why the feed cannot answer a cursor.
enum ChangeFeedError: Error, Sendable, Equatable {
    /// The cursor is older than the retention (its events were compacted) or ahead of the feed (another store's):
    /// the consumer must resync — read what it mirrors afresh, then follow the feed from the `next` of a new page.
    case resyncRequired(String)
    /// Too many long-polls are waiting already (`ChangeFeedService.maxWaiters`).
    case busy
}

/// The change feed: pages of events after a cursor, long-polls that wait for the next event without holding a thread,
/// and the retention (events older than `retentionDays` are compacted hourly).
///
/// Waiting: a long-poll registers a waiter (its cursor, deadline and answer). One thread checks the waiters when told
/// a change happened (`notify()`: a publish here, or another replica's through the store's change watcher), every
/// `pollSeconds` in case a notification was lost, and at the earliest deadline; each waiter gets the events after its
/// cursor, or an empty page at its deadline. Thread-safe.
final class ChangeFeedService: Sendable {
    /// Most events in one page (`limit` 1…this).
    static let maxPageSize = 1000
    /// Longest long-poll, seconds.
    static let maxWaitSeconds = 60
    /// Most long-polls waiting at once; more answer 503 `feed_busy`.
    static let maxWaiters = 1024
    /// How often waiters are checked without a notification, seconds.
    static let pollSeconds = 2.0

    let auth: FeedAuth
    /// Events older than this many days are compacted (1 or more).
    let retentionDays: Int
    private let store: ServiceStore
    private let state = LockedValue(WaitState())
    private let signal = NSCondition()

    private struct Waiter: Sendable {
        var after: Int64?
        var limit: Int
        var deadline: Double
        var answer: @Sendable (Result<FeedPage, any Error>) -> Void
    }

    private struct WaitState: Sendable {
        var waiters: [Waiter] = []
        var changed = false
        var closed = false
        var started = false
        var lastCompaction = -Double.infinity
    }

    init(store: any LookStore, metrics: Metrics, auth: FeedAuth, retentionDays: Int) {
        self.store = ServiceStore(store, metrics: metrics)
        self.auth = auth
        self.retentionDays = max(1, retentionDays)
    }

    /// The events after `after` (nil: from the oldest retained), at most `limit`. Throws
    /// `ChangeFeedError.resyncRequired` for a cursor below the compacted position or above the latest, `StoreUnavailableError`.
    func page(after: Int64?, limit: Int) throws -> FeedPage {
        let page = try store.call { try $0.changes(after: max(0, after ?? 0), limit: limit) }
        if let after {
            if after < page.compactedThrough {
                throw ChangeFeedError.resyncRequired(
                    "events up to \(page.compactedThrough) were compacted (retention \(retentionDays) days): cursor \(after) cannot be resumed; resync and start from a new page's next")
            }
            if after > page.latest {
                throw ChangeFeedError.resyncRequired("cursor \(after) is ahead of this feed (latest \(page.latest)): it is not this store's; resync")
            }
        }
        return FeedPage(events: page.events, next: page.events.last?.seq ?? after ?? page.latest)
    }

    /// Answers through `answer` (once, on the feed's thread or the caller's) the events after `after` as soon as there
    /// are any, or an empty page after `seconds`. Throws `ChangeFeedError.busy` when `maxWaiters` wait already.
    func wait(after: Int64?, limit: Int, seconds: Double, answer: @escaping @Sendable (Result<FeedPage, any Error>) -> Void) throws {
        let waiter = Waiter(after: after, limit: limit, deadline: monotonicSeconds() + seconds, answer: answer)
        let admitted = state.withLock { state -> Bool? in
            guard !state.closed else { return nil }
            guard state.waiters.count < Self.maxWaiters else { return false }
            state.waiters.append(waiter)
            state.changed = true
            return true
        }
        switch admitted {
        case nil: answer(Result { try page(after: after, limit: limit) })
        case false?: throw ChangeFeedError.busy
        case true?: wake()
        }
    }

    /// Tells the waiters a change may have happened. Thread-safe, cheap.
    func notify() {
        state.withLock { $0.changed = true }
        wake()
    }

    /// Starts the thread that answers waiters and compacts. Once; before serving.
    func start() {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        let thread = Thread { [self] in run() }
        thread.name = "lookd-feed"
        thread.start()
    }

    /// Answers every waiter now (their pages as they stand) and stops the thread; later waits answer at once.
    func close() {
        let waiters = state.withLock { state in
            state.closed = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        wake()
        for waiter in waiters { waiter.answer(Result { try page(after: waiter.after, limit: waiter.limit) }) }
    }

    private func wake() {
        signal.lock()
        signal.broadcast()
        signal.unlock()
    }

    private func run() {
        var lastCheck = monotonicSeconds()
        while true {
            let now = monotonicSeconds()
            let (closed, due, compact) = state.withLock { state -> (Bool, Bool, Bool) in
                let earliest = state.waiters.map(\.deadline).min() ?? .infinity
                let due = state.changed || earliest <= now || (!state.waiters.isEmpty && now - lastCheck >= Self.pollSeconds)
                state.changed = false
                let compact = now - state.lastCompaction >= 3600
                if compact { state.lastCompaction = now }
                return (state.closed, due, compact)
            }
            if closed { return }
            if compact { self.compact() }
            if due {
                check(now: now)
                lastCheck = now
            }
            let next = state.withLock { state -> Double in
                if state.changed || state.closed { return 0 }
                let earliest = state.waiters.map(\.deadline).min() ?? .infinity
                return min(earliest - monotonicSeconds(), state.waiters.isEmpty ? 60 : Self.pollSeconds)
            }
            if next > 0 {
                signal.lock()
                _ = signal.wait(until: Date(timeIntervalSinceNow: next))
                signal.unlock()
            }
        }
    }

    /// Answers the waiters that have events, or whose deadline passed. One store read per distinct cursor.
    private func check(now: Double) {
        let waiters = state.withLock { $0.waiters }
        var pages: [Int64?: Result<FeedPage, any Error>] = [:]
        var answered: [Int] = []
        for (index, waiter) in waiters.enumerated() {
            let key = waiter.after
            let result = pages[key] ?? Result { try page(after: waiter.after, limit: Self.maxPageSize) }
            pages[key] = result
            switch result {
            case .success(let page) where page.events.isEmpty && waiter.deadline > now:
                continue
            case .success(let page):
                let events = Array(page.events.prefix(waiter.limit))
                waiter.answer(.success(FeedPage(events: events, next: events.last?.seq ?? page.next)))
            case .failure(let error):
                waiter.answer(.failure(error))
            }
            answered.append(index)
        }
        guard !answered.isEmpty else { return }
        // Remove by identity of position: waiters only ever append while we checked, so earlier indices are stable.
        state.withLock { state in
            for index in answered.reversed() where index < state.waiters.count { state.waiters.remove(at: index) }
        }
    }

    private func compact() {
        let cutoff = unixMilliseconds() - Int64(retentionDays) * 86_400_000
        do {
            let deleted = try store.call { try $0.compactChanges(before: cutoff) }
            if deleted > 0 { ServerLog.error("lookd: feed: compacted \(deleted) events older than \(retentionDays) days") }
        } catch {
            ServerLog.error("lookd: feed: compaction failed: \(error)")
        }
    }
}
