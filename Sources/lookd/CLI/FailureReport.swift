import LookdServer

/// The one place the CLI turns an error into what the user sees: a message after `lookd <command>: ` on stderr
/// and an exit code (0 success, 1 the command's own failure, 2 usage, input, configuration or I/O problems).
/// The daemon's domain errors get the same words here as over HTTP (`LookdServer/HTTP/ErrorResponses.swift`
/// maps them to statuses and codes).
enum FailureReport {
    static func of(_ error: any Error) -> (message: String, exitCode: Int32) {
        switch error {
        case let error as UsageError: (error.description, 2)
        case let error as ConfigurationError: (error.description, 2)
        case let error as LookServiceError:
            if case .layerInvalid = error { (error.message, 1) } else { (error.message, 2) }
        case let error as StringsServiceError: (error.message, 2)
        case let error as LintServiceError: (error.message, 2)
        case let error as AdminAuthError: (error.message, 2)
        case let error as StoreUnavailableError: ("the store is unavailable: \(error.cause)", 2)
        case let error as PublishOutcomeUnknownError: ("the publish's outcome is unknown (read the current version): \(error.cause)", 2)
        default: ("\(error)", 2)
        }
    }
}
