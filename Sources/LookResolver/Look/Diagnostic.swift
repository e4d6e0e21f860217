/// A value the resolver ignored, and why. The field falls through to the next layer; the look is still resolved.
public struct Diagnostic: Sendable, Hashable, Codable {
    public enum Severity: String, Sendable, Codable {
        /// The value is wrong (a bad colour, too many topics, …). A dashboard publish with an error is refused.
        case error
        /// The value is unknown to this version (a field or enum value from a newer dashboard) or not allowed in
        /// this layer. Ignored for forward compatibility.
        case warning
    }

    public var layer: LookLayer
    /// The field's name, with a path inside it where useful: `accent.dark`, `topics[2].id`.
    public var field: String
    /// A stable code, one of ``Diagnostic/Code``.
    public var code: String
    public var message: String
    public var severity: Severity

    public init(layer: LookLayer, field: String, code: Code, message: String) {
        self.layer = layer
        self.field = field
        self.code = code.rawValue
        self.message = message
        self.severity = code.severity
    }

    /// Every diagnostic code. Stable: clients may match on them.
    public enum Code: String, Sendable, CaseIterable {
        case invalidLayer = "invalid_layer"
        case invalidType = "invalid_type"
        case invalidColor = "invalid_color"
        case invalidValue = "invalid_value"
        case invalidLocale = "invalid_locale"
        case invalidURL = "invalid_url"
        case emptyValue = "empty_value"
        /// A text with no visible character: only zero-width, bidi, format or separator characters.
        case invisibleText = "invisible_text"
        /// An app name or topic label containing a bidi control (LRM, RLM, ALM, an embedding, override or isolate).
        case bidiControl = "bidi_control"
        case tooLong = "too_long"
        case missingValue = "missing_value"
        case tooManyTopics = "too_many_topics"
        case duplicateTopicID = "duplicate_topic_id"
        case invalidTopicID = "invalid_topic_id"
        case unknownValue = "unknown_value"
        case unknownField = "unknown_field"
        case fieldNotAllowed = "field_not_allowed"

        public var severity: Severity {
            switch self {
            case .unknownValue, .unknownField, .fieldNotAllowed: .warning
            default: .error
            }
        }
    }
}
