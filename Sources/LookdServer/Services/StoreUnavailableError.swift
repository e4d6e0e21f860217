/// The store failed (the cause is logged and counted by `ServiceStore`, which throws it for every `StoreError`); retrying shortly may succeed.
public struct StoreUnavailableError: Error, Sendable {
    /// The store's own description, for the log and the CLI, never for HTTP clients.
    public var cause: String
}
