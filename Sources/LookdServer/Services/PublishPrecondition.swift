/// What a publish requires of the app's current version, read from the request's preconditions.
enum PublishPrecondition: Sendable, Equatable {
    /// The app has never been published (`If-None-Match: *`).
    case newApp
    /// The current version is one of these (`If-Match` with our version tags). Empty when the request named
    /// only entity tags that are not ours: it can never hold (RFC 9110 §13.1.1: 412).
    case anyVersion([Int])
}
