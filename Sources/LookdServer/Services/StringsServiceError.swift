/// Why the strings service refused a request. Mapped to the wire in `HTTP/ErrorResponses.swift`.
public enum StringsServiceError: Error, Sendable, Equatable {
    /// A `lang` (or a format request's `locale`) that is not a well-formed BCP 47 tag.
    case langInvalid
    /// No catalog in the locale's chain has this message key.
    case keyUnknown(String)
    /// The message could not be formatted with these arguments (the library's reason).
    case formatFailed(String)
    /// The format request is not the documented JSON shape.
    case requestInvalid(String)
    /// The request is over one of the service's bounds (batch size).
    case limitExceeded(String)

    /// A sentence for people.
    public var message: String {
        switch self {
        case .langInvalid: "lang takes a BCP 47 language tag such as de, pt-BR or zh-Hant"
        case .keyUnknown(let message), .formatFailed(let message), .requestInvalid(let message), .limitExceeded(let message): message
        }
    }
}
