import Locking
import Foundation
import Synchronization

/// Delivers the change feed's events to the configured webhook receivers (docs/webhooks.md): signed POSTs,
/// at-least-once, in order per app and receiver, retried with exponential backoff and jitter for the retry window.
///
/// Every delivery's state is in the store (written with the event), so a restart or kill -9 loses nothing. This
/// replica leases due deliveries (`LookStore.claimDeliveries`) under its own owner id; a delivery is attempted by one
/// replica at a time, and the lease of a replica that died expires and is taken over. A delivery whose lease was
/// taken over may be attempted twice: receivers deduplicate on `Lookd-Delivery`.
///
/// One thread per receiver claims due deliveries (woken by `notify()`, a finished attempt, or every `pollSeconds`)
/// and runs each attempt on its own thread; at most `concurrency` are leased per receiver over all replicas.
/// Thread-safe.
final class WebhookDeliverer: Sendable {
    let configuration: WebhookConfiguration
    /// This process's lease owner id (random).
    let owner: String
    private let store: any LookStore
    private let state = LockedValue(State())
    private let signal = NSCondition()
    private let clients: [String: WebhookClient]

    private struct State: Sendable {
        var stopped = false
        var started = false
        var wakeups = 0
    }

    init(store: any LookStore, configuration: WebhookConfiguration) {
        self.store = store
        self.configuration = configuration
        owner = (try? Crypto.randomBytes(count: 8)).map(Crypto.hex) ?? String(UInt64.random(in: 1...UInt64.max), radix: 16)
        var clients: [String: WebhookClient] = [:]
        for receiver in configuration.receivers {
            clients[receiver.id] = WebhookClient(concurrency: configuration.concurrency, timeoutSeconds: configuration.timeoutSeconds)
        }
        self.clients = clients
    }

    /// Registers the receivers in the store and starts one thread per receiver. Throws StoreError (`AppServices.startBackground` translates it).
    func start() throws {
        try store.registerReceivers(configuration.receivers.map { ($0.id, $0.url) })
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        for receiver in configuration.receivers {
            let thread = Thread { [self] in run(receiver) }
            thread.name = "lookd-webhook"
            thread.start()
        }
    }

    /// Something was published: look for new deliveries now. Thread-safe, cheap.
    func notify() {
        state.withLock { $0.wakeups += 1 }
        signal.lock()
        signal.broadcast()
        signal.unlock()
    }

    /// Stops claiming. Attempts in flight finish on their own; what they could not record is retried after the lease.
    func stop() {
        state.withLock { $0.stopped = true }
        notify()
        clients.values.forEach { $0.close() }
    }

    private func run(_ receiver: WebhookReceiver) {
        var seen = -1
        while true {
            let (stopped, wakeups) = state.withLock { ($0.stopped, $0.wakeups) }
            if stopped { return }
            seen = wakeups
            var claimed: [WebhookDelivery] = []
            do {
                // The store counts every lease of this receiver, this replica's in-flight attempts included: the claim
                // returns only what fits under the concurrency bound.
                claimed = try store.claimDeliveries(receiver: receiver.id, owner: owner, nowMilliseconds: unixMilliseconds(),
                                                    leaseMilliseconds: configuration.leaseMilliseconds, limit: configuration.concurrency)
            } catch {
                ServerLog.error("lookd: webhook \(receiver.url): claiming deliveries failed: \(error)")
            }
            if !claimed.isEmpty {
                for delivery in claimed {
                    let thread = Thread { [self] in
                        attempt(delivery, receiver)
                        notify()
                    }
                    thread.name = "lookd-webhook-attempt"
                    thread.start()
                }
                continue
            }
            signal.lock()
            if state.withLock({ $0.wakeups == seen && !$0.stopped }) {
                _ = signal.wait(until: Date(timeIntervalSinceNow: configuration.pollSeconds))
            }
            signal.unlock()
        }
    }

    /// One attempt: POST, then record the outcome (ignored by the store when the lease was lost meanwhile).
    private func attempt(_ delivery: WebhookDelivery, _ receiver: WebhookReceiver) {
        let now = unixMilliseconds()
        let outcome: DeliveryOutcome
        if now - delivery.createdAtMilliseconds > configuration.retryWindowSeconds * 1000 {
            outcome = .failed(reason: "the retry window (\(configuration.retryWindowSeconds / 3600) h) ran out after \(delivery.attempts) attempts")
        } else {
            let body = Array(delivery.body.utf8)
            let signature = WebhookSignature.header(secret: configuration.secret, timestamp: now / 1000, body: body)
            let answer = clients[receiver.id]?.post(url: receiver.url, headers: [("Lookd-Delivery", delivery.deliveryID), ("Lookd-Signature", signature)],
                                                    body: body) ?? .failed("no client")
            outcome = classify(answer, attempts: delivery.attempts)
        }
        do {
            try store.finishDelivery(delivery, owner: owner, outcome: outcome, nowMilliseconds: unixMilliseconds())
        } catch {
            ServerLog.error("lookd: webhook \(receiver.url): recording delivery \(delivery.deliveryID) failed (retried after its lease): \(error)")
        }
    }

    /// 2xx: delivered. 408, 429, 5xx, other statuses and no answer: retried. Any other 4xx: given up, recorded.
    func classify(_ answer: WebhookClient.Answer, attempts: Int) -> DeliveryOutcome {
        let retryAt = unixMilliseconds() + Int64(configuration.retryDelaySeconds(afterAttempts: attempts) * 1000)
        switch answer {
        case .status(let status) where (200..<300).contains(status):
            return .delivered
        case .status(let status) where (400..<500).contains(status) && status != 408 && status != 429:
            return .failed(reason: "the receiver answered HTTP \(status)")
        case .status(let status):
            return .retry(atMilliseconds: retryAt, reason: "the receiver answered HTTP \(status)")
        case .failed(let reason):
            return .retry(atMilliseconds: retryAt, reason: reason)
        }
    }
}
