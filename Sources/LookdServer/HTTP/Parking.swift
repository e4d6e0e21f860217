import Locking
import Synchronization

/// Thrown by a handler running on a worker (`RouteDoc.runsOn: .workers`) that will answer later — a long-poll waiting
/// for events. The server parks the request (`he_park`: the worker is free at once, the connection waits, no
/// thread is held) and calls `start` with the `ParkedAnswer` to answer it with. Thrown on an event loop or in a
/// context that cannot park, it is answered 500 `internal`.
struct ParkRequest: Error {
    let start: @Sendable (ParkedAnswer) -> Void
}

/// The one answer a parked request is owed. Call `answer(_:)` exactly once, from any thread; later calls are ignored.
/// Every parked answer must be given before the server stops (the owner answers its waiters when the drain starts).
final class ParkedAnswer: Sendable {
    private let send: LockedValue<(@Sendable (Response) -> Void)?>

    init(_ send: @escaping @Sendable (Response) -> Void) {
        self.send = LockedValue(send)
    }

    /// Sends `response` (the first call only). Thread-safe.
    func answer(_ response: Response) {
        let once = send.withLock { send in
            defer { send = nil }
            return send
        }
        once?(response)
    }
}
