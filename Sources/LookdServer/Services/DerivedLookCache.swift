/// A cache outside the look service of what is derived from its responses (in the daemon: the SDK fetch's entries in
/// the engine's response cache, filled at the HTTP edge). The look cache keeps it coherent and knows nothing else of
/// it: every invalidation of an app drops the app there too before returning, and a revalidation (the change feed is
/// back) checks the apps it holds as it checks its own. Thread-safe.
protocol DerivedLookCache: AnyObject, Sendable {
    /// The most bytes it takes of `Limits.cacheBytes` (the look cache has the rest).
    var capacityBytes: Int { get }

    /// Drops what it holds of `appKey` (of every app when nil) before returning; a fill that read the look service
    /// before this call must not be kept after it.
    func drop(appKey: String?)

    /// The apps it holds responses of and the version each was built from; nil when it holds more apps than it
    /// counts (a revalidation then drops it all).
    func heldVersions() -> [String: Int]?
}
