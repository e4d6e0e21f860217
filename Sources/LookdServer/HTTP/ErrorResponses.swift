import LookResolver
import StableJSON

/// An error that knows how it is answered over HTTP: a status, a stable code clients branch on, a message for
/// people, and optional headers and details (added as `error.details`).
/// In the spirit of Hummingbird's `HTTPResponseError`: the services throw their own domain errors, and this
/// file is the one place that says what each of them looks like on the wire.
protocol HTTPResponseError: Error {
    var status: Int { get }
    var code: String { get }
    var message: String { get }
    var headers: [(name: String, value: String)] { get }
    var details: JSONValue? { get }
}

extension HTTPResponseError {
    var headers: [(name: String, value: String)] { [] }
    var details: JSONValue? { nil }
}

extension HTTPError: HTTPResponseError {
    /// The wire form of any domain error.
    init(_ error: any HTTPResponseError) {
        if let error = error as? HTTPError {
            self = error
            return
        }
        self.init(status: error.status, code: error.code, message: error.message, headers: error.headers, details: error.details)
    }
}

/// Runs a handler and turns every domain error it throws into the `HTTPError` the server answers with.
/// Errors that are not domain errors pass through (the server answers them 500 `internal` and logs them).
func answeringDomainErrors(_ body: () throws -> Response) throws -> Response {
    do {
        return try body()
    } catch let error as any HTTPResponseError {
        throw HTTPError(error)
    }
}

extension LookServiceError: HTTPResponseError {
    var status: Int {
        switch self {
        case .appUnknown, .versionUnknown: 404
        case .versionConflict: 412
        case .layerInvalid: 422
        case .layerMalformed, .limitExceeded: 400
        }
    }

    var code: String {
        switch self {
        case .appUnknown: "app_unknown"
        case .versionUnknown: "version_unknown"
        case .versionConflict: "version_conflict"
        case .layerInvalid: "look_invalid"
        case .layerMalformed: "json_invalid"
        case .limitExceeded: "limit_exceeded"
        }
    }

    var headers: [(name: String, value: String)] {
        if case .versionConflict(let current?, _) = self { return [("ETag", "\"v\(current)\"")] }
        return []
    }

    var details: JSONValue? {
        if case .layerInvalid(let diagnostics) = self { return .array(diagnostics.map(\.wireValue)) }
        return nil
    }
}

extension StringsServiceError: HTTPResponseError {
    var status: Int {
        switch self {
        case .keyUnknown: 404
        case .langInvalid, .formatFailed, .requestInvalid, .limitExceeded: 400
        }
    }

    var code: String {
        switch self {
        case .langInvalid: "lang_invalid"
        case .keyUnknown: "key_unknown"
        case .formatFailed: "format_failed"
        case .requestInvalid: "json_invalid"
        case .limitExceeded: "limit_exceeded"
        }
    }
}

extension LintServiceError: HTTPResponseError {
    var status: Int { 400 }

    var code: String {
        switch self {
        case .requestInvalid: "json_invalid"
        case .inputInvalid: "lint_input_invalid"
        case .limitExceeded: "limit_exceeded"
        }
    }
}

extension AdminAuthError: HTTPResponseError {
    var status: Int { self == .disabled ? 403 : 401 }
    var code: String { self == .disabled ? "forbidden" : "unauthorized" }
    var headers: [(name: String, value: String)] {
        self == .disabled ? [] : [("WWW-Authenticate", "Bearer realm=\"lookd-admin\"")]
    }
}

extension StoreUnavailableError: HTTPResponseError {
    var status: Int { 503 }
    var code: String { "store_unavailable" }
    /// The store's own text stays in the daemon's log (`ServiceStore`); clients get advice.
    var message: String { "the store is unavailable; retry shortly" }
    var headers: [(name: String, value: String)] { [("Retry-After", "1")] }
}

extension DraftServiceError: HTTPResponseError {
    var status: Int {
        switch self {
        case .draftUnknown: 404
        case .draftConflict: 412
        case .previewTokenInvalid: 403
        }
    }

    var code: String {
        switch self {
        case .draftUnknown: "draft_unknown"
        case .draftConflict: "draft_conflict"
        case .previewTokenInvalid: "preview_token_invalid"
        }
    }

    var headers: [(name: String, value: String)] {
        if case .draftConflict(let current?) = self { return [("ETag", "\"d\(current)\"")] }
        return []
    }
}

extension PublishOutcomeUnknownError: HTTPResponseError {
    var status: Int { 503 }
    var code: String { "publish_outcome_unknown" }
    var message: String {
        "the database failed while committing this publish and its outcome could not be read back: it may or may not be stored; read the app's current version before publishing again"
    }
    var headers: [(name: String, value: String)] { [("Retry-After", "1")] }
}

extension ChangeFeedError: HTTPResponseError {
    var status: Int {
        switch self {
        case .resyncRequired: 410
        case .busy: 503
        }
    }

    var code: String {
        switch self {
        case .resyncRequired: "resync_required"
        case .busy: "feed_busy"
        }
    }

    var message: String {
        switch self {
        case .resyncRequired(let reason): reason
        case .busy: "too many long-polls are waiting; retry shortly"
        }
    }

    var headers: [(name: String, value: String)] { self == .busy ? [("Retry-After", "1")] : [] }
}

extension FeedAuthError: HTTPResponseError {
    var status: Int { self == .disabled ? 403 : 401 }
    var code: String { self == .disabled ? "forbidden" : "unauthorized" }
    var headers: [(name: String, value: String)] {
        self == .disabled ? [] : [("WWW-Authenticate", "Bearer realm=\"lookd-feed\"")]
    }
}
