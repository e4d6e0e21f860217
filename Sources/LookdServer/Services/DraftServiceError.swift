/// Why a draft request was refused, in the domain's terms (answered by `HTTP/ErrorResponses.swift`).
public enum DraftServiceError: Error, Sendable, Equatable {
    /// The app has no draft now (never had one, or it was deleted or published).
    case draftUnknown
    /// The draft precondition does not hold: `current` is the draft's version (nil: there is no draft).
    case draftConflict(current: Int?)
    /// A preview token that is malformed, forged, expired, revoked, for another app or for an older draft. The
    /// reason is for the daemon's log only: the answer says nothing about the draft.
    case previewTokenInvalid(reason: String)

    public var message: String {
        switch self {
        case .draftUnknown: "this app has no draft"
        case .draftConflict(let current?): "the draft's current version is \(current); fetch it and retry with If-Match: \"d\(current)\""
        case .draftConflict(nil): "the app has no draft; create it with If-None-Match: *"
        case .previewTokenInvalid: "the preview token is not valid for this app"
        }
    }
}
