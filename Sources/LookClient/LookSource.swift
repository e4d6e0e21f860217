/// Where a look's published layer and texts came from.
public enum LookSource: String, Sendable, Hashable, CaseIterable {
    /// Fetched from the server by this call (a 200), or by the fetch it waited for.
    case network
    /// The bytes stored on disk or in memory: fresh, stale while revalidating, or confirmed by a 304.
    case cache
    /// No published look was reachable and none was cached: the app's code and inferred layers over the defaults.
    case builtIn
}
