/// One entry of the English source catalog (`en.json`): the ICU MessageFormat pattern, a note for
/// translators, and an optional maximum length in user-perceived characters.
public struct SourceMessage: Sendable, Hashable {
    public let message: String
    public let description: String?
    public let maxLength: Int?

    public init(message: String, description: String? = nil, maxLength: Int? = nil) {
        self.message = message
        self.description = description
        self.maxLength = maxLength
    }
}
