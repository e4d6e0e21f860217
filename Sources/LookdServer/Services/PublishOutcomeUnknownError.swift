/// A publish whose COMMIT was sent when the database connection died, and whose outcome could not be read back
/// in time (the primary failed and no server answered, or the version is not yet on a synchronous standby): the
/// version may or may not be stored. The client must read the app's current version (its history, or a fetch)
/// before publishing again; a retry with the same `If-Match` is safe too (412 if the first attempt landed).
public struct PublishOutcomeUnknownError: Error, Sendable {
    /// The store's own description, for the log, never for HTTP clients.
    public var cause: String
}
