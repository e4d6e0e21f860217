import LookResolver

/// Why the look service refused a request. Each case says what went wrong in the domain's terms; the HTTP
/// edge (`HTTP/ErrorResponses.swift`) and the CLI each say how it is answered.
public enum LookServiceError: Error, Sendable {
    /// No look has been published for this app key.
    case appUnknown
    /// The app exists but has no such version.
    case versionUnknown(Int)
    /// The publish precondition does not hold: `current` is the app's current version (nil: never published).
    case versionConflict(current: Int?, reason: String)
    /// The layer is well-formed JSON but has errors: the diagnostics say which fields.
    case layerInvalid([Diagnostic])
    /// The layer is not a JSON object of the expected shape.
    case layerMalformed(String)
    /// The input is over one of the service's bounds (topics, keys).
    case limitExceeded(String)

    /// A sentence for people.
    public var message: String {
        switch self {
        case .appUnknown: "no look has been published for this app key"
        case .versionUnknown(let version): "this app has no version \(version)"
        case .versionConflict(_, let reason): reason
        case .layerInvalid: "the layer has errors; the published look is unchanged"
        case .layerMalformed(let message), .limitExceeded(let message): message
        }
    }
}
