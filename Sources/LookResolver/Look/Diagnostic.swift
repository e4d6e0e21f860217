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
    /// A stable code. A code this version does not know (read from a newer server's JSON) is `.unknown(name)`.
    public var code: Code
    public var message: String
    public var severity: Severity

    /// A diagnostic with the code's own severity (``Diagnostic/Code/severity``).
    public init(layer: LookLayer, field: String, code: Code, message: String) {
        self.init(layer: layer, field: field, code: code, message: message, severity: code.severity)
    }

    /// A diagnostic as given, e.g. one read back from the JSON of a resolved look.
    public init(layer: LookLayer, field: String, code: Code, message: String, severity: Severity) {
        self.layer = layer
        self.field = field
        self.code = code
        self.message = message
        self.severity = severity
    }

    /// Every diagnostic code, by its wire name (`rawValue`). Stable: clients may match on them.
    public enum Code: Sendable, Hashable, Codable, RawRepresentable {
        case invalidLayer
        case invalidType
        case invalidColor
        case invalidValue
        case invalidLocale
        case invalidURL
        case emptyValue
        /// A text with no visible character: only zero-width, bidi, format or separator characters.
        case invisibleText
        /// An app name or topic label containing a bidi control (LRM, RLM, ALM, an embedding, override or isolate).
        case bidiControl
        case tooLong
        case missingValue
        case tooManyTopics
        case duplicateTopicID
        case invalidTopicID
        case unknownValue
        case unknownField
        case fieldNotAllowed
        /// The daemon's notice in place of the diagnostics over its bound (docs/http-api.md): "and N more diagnostics".
        case diagnosticsTruncated
        /// A code this version does not know, kept by its wire name (from a newer server). Never made by this resolver.
        case unknown(String)

        /// The codes this version knows, in their documented order (docs/look.md); not `.unknown`.
        public static let known: [Code] = [
            .invalidLayer, .invalidType, .invalidColor, .invalidValue, .invalidLocale, .invalidURL, .emptyValue,
            .invisibleText, .bidiControl, .tooLong, .missingValue, .tooManyTopics, .duplicateTopicID, .invalidTopicID,
            .unknownValue, .unknownField, .fieldNotAllowed, .diagnosticsTruncated,
        ]

        /// The known code named `rawValue`, or `.unknown(rawValue)`; never nil.
        public init(rawValue: String) {
            self = Self.known.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
        }

        /// The wire name, e.g. `"invalid_color"`; an unknown code's own name.
        public var rawValue: String {
            switch self {
            case .invalidLayer: "invalid_layer"
            case .invalidType: "invalid_type"
            case .invalidColor: "invalid_color"
            case .invalidValue: "invalid_value"
            case .invalidLocale: "invalid_locale"
            case .invalidURL: "invalid_url"
            case .emptyValue: "empty_value"
            case .invisibleText: "invisible_text"
            case .bidiControl: "bidi_control"
            case .tooLong: "too_long"
            case .missingValue: "missing_value"
            case .tooManyTopics: "too_many_topics"
            case .duplicateTopicID: "duplicate_topic_id"
            case .invalidTopicID: "invalid_topic_id"
            case .unknownValue: "unknown_value"
            case .unknownField: "unknown_field"
            case .fieldNotAllowed: "field_not_allowed"
            case .diagnosticsTruncated: "diagnostics_truncated"
            case .unknown(let name): name
            }
        }

        /// Codes are equal when their wire names are: `.unknown("invalid_color")` (made by hand) is `.invalidColor`.
        public static func == (lhs: Code, rhs: Code) -> Bool { lhs.rawValue == rhs.rawValue }

        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

        /// Decodes the wire name (a JSON string); an unknown name becomes `.unknown(name)`.
        public init(from decoder: any Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
        }

        /// Encodes the wire name as a JSON string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        /// A value that is wrong is an error; one this version does not know, or may not take from this layer, a
        /// warning (ignored for forward compatibility). An unknown code is a warning.
        public var severity: Severity {
            switch self {
            case .unknownValue, .unknownField, .fieldNotAllowed, .diagnosticsTruncated, .unknown: .warning
            default: .error
            }
        }
    }
}
