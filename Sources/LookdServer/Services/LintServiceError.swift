/// Why a lint request was refused. Mapped to the wire in `HTTP/ErrorResponses.swift`.
public enum LintServiceError: Error, Sendable, Equatable {
    /// The request is not the documented JSON shape.
    case requestInvalid(String)
    /// The catalogs or configuration cannot be linted (a bad name, no source catalog, a bad configuration).
    case inputInvalid(String)
    /// The request is over one of the service's bounds (catalogs, keys).
    case limitExceeded(String)

    public var message: String {
        switch self {
        case .requestInvalid(let message), .inputInvalid(let message), .limitExceeded(let message): message
        }
    }
}
