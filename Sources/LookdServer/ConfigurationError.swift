/// A setting the daemon was started with cannot be used: an address that is not numeric or is in use, a data
/// directory that cannot be created or that another lookd holds, an unreadable token or access-log file.
/// The CLI prints `description` and exits 2; nothing is served.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
