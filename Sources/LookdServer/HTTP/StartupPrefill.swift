import Foundation
import Locking

/// After the daemon starts, puts every published app's current version in the engine's response cache, all its
/// languages, as a publish on this node does after answering (`AppRoutes.prefill`, the same code): so that after a
/// restart the first fetch of each app and language is the engine's too, not a route's building it. One background
/// thread, one app after another in key order, the store listed a page of `pageSize` keys at a time; it ends when every
/// app is done, when the cache has no room for another app's every language, at a store failure (logged; the fetches
/// then fill as they would without it), or at `stop()`. A fetch or a publish racing it wins: the prefill of an app a
/// fetch filled first, or of a version a newer publish replaced, puts nothing. Thread-safe.
final class StartupPrefill: Sendable {
    private let cache: LookResponseCache
    private let services: AppServices
    private let options: LookResponse.Options
    private let pageSize: Int
    private let state = LockedValue(State())
    private let changed = NSCondition()

    private struct State: Sendable {
        var stopping = false
        var running = false
        /// Apps whose languages this prefill put (a fetch or publish that came first not counted).
        var apps = 0
    }

    /// `options`: the daemon's fetch options (the same bytes a fetch's fill would put). `pageSize`: keys read from the
    /// store at a time (≥ 1).
    init(cache: LookResponseCache, services: AppServices, options: LookResponse.Options, pageSize: Int = 500) {
        self.cache = cache
        self.services = services
        self.options = options
        self.pageSize = max(1, pageSize)
    }

    /// Starts the thread (once; a second call does nothing).
    func start() {
        let first = state.withLock { state in
            defer { state.running = true }
            return !state.running && !state.stopping
        }
        guard first else { return }
        let thread = Thread { [self] in
            run()
            state.withLock { $0.running = false }
            changed.lock()
            changed.broadcast()
            changed.unlock()
        }
        thread.name = "lookd-prefill"
        thread.start()
    }

    /// Asks the thread to end after the app it is on, and waits for it at most `timeout` seconds (the daemon, before it
    /// closes the store). Returns whether it had ended.
    @discardableResult
    func stop(timeout: Double = 10) -> Bool {
        state.withLock { $0.stopping = true }
        return wait(timeout: timeout)
    }

    /// Waits at most `timeout` seconds for the thread to end on its own; returns whether it has (true when it never ran).
    func wait(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        changed.lock()
        defer { changed.unlock() }
        while state.withLock({ $0.running }) {
            if !changed.wait(until: deadline) { return !state.withLock { $0.running } }
        }
        return true
    }

    /// Apps this prefill has put so far.
    var appsPrefilled: Int { state.withLock { $0.apps } }

    /// Prefills, then logs how many apps it put and in how long.
    private func run() {
        let started = Date()
        fill()
        let seconds = Date().timeIntervalSince(started)
        ServerLog.error("lookd: prefilled \(appsPrefilled) app(s) at start in \(String(format: "%.1f", seconds)) s" +
                        (cache.hasRoomForAnApp ? "" : " (the response cache is full)"))
    }

    private func fill() {
        var after: String?
        repeat {
            let page: (versions: [(appKey: String, version: Int)], next: String?)
            do {
                page = try services.looks.currentVersions(after: after, limit: pageSize)
            } catch {
                ServerLog.error("lookd: the prefill at start stopped: \(error)")
                return
            }
            for (key, version) in page.versions {
                guard !state.withLock({ $0.stopping }), cache.hasRoomForAnApp else { return }
                if AppRoutes.prefillNow(cache, app: services, key: key, version: version, options: options) > 0 {
                    state.withLock { $0.apps += 1 }
                }
            }
            after = page.next
        } while after != nil && !state.withLock { $0.stopping }
    }
}
