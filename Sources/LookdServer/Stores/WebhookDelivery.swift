/// One event to be POSTed to one webhook receiver, as the store keeps it. A delivery row is written for every
/// registered receiver in the same transaction as the event, so nothing published is ever missing one.
struct WebhookDelivery: Sendable, Equatable {
    /// The receiver's id (`WebhookReceiver.id`).
    var receiver: String
    var seq: Int64
    var appKey: String
    /// The event's JSON object (`ChangeEvent.json`): the request body, byte for byte on every attempt.
    var body: String
    /// Attempts made before this one.
    var attempts: Int
    /// When the delivery was created (the event was written): Unix milliseconds.
    var createdAtMilliseconds: Int64

    /// `Lookd-Delivery`: unique per event and receiver, the same on every retry and on every replica.
    var deliveryID: String { "\(receiver)-\(seq)" }
}

/// Where a delivery stands.
enum DeliveryState: String, Sendable, Equatable {
    /// Not acknowledged yet: waiting for its next attempt (or for an earlier event of the same app).
    case pending
    /// The receiver answered 2xx.
    case delivered
    /// Given up: a 4xx other than 408/429, or the retry window ran out. The reason is recorded.
    case failed
}

/// What one attempt ended with, as the deliverer tells the store.
enum DeliveryOutcome: Sendable, Equatable {
    /// 2xx: done.
    case delivered
    /// A retryable failure (timeout, connection error, 5xx, 408, 429): try again at `retryAtMilliseconds` (Unix ms).
    case retry(atMilliseconds: Int64, reason: String)
    /// A permanent failure: stop, keeping `reason`.
    case failed(reason: String)
}

/// A delivery's recorded state (for tests, the admin view and metrics).
struct DeliveryRecord: Sendable, Equatable {
    var receiver: String
    var seq: Int64
    var appKey: String
    var state: DeliveryState
    var attempts: Int
    var lastError: String?
}
