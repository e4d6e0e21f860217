/// The change feed's settings (`lookd serve --feed-token-file FILE --feed-retention-days N`).
struct FeedConfiguration: Sendable {
    /// The feed token; without one the feed answers 403.
    var auth = FeedAuth(token: nil)
    /// Events older than this many days are compacted (1 or more; default 7).
    var retentionDays = 7
}
