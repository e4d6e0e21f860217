import CICU

/// How a pattern uses an argument (ICU MessageFormat argument types).
public enum ArgumentType: String, Sendable, Hashable, Codable {
    /// `{name}` — no type.
    case string
    case number, date, time, plural, select, selectordinal, choice
    /// A simple type ICU knows but lookd does not use (spellout, ordinal, duration).
    case other

    package init(shim value: Int32) {
        switch value {
        case Int32(LOOKD_TYPE_NUMBER): self = .number
        case Int32(LOOKD_TYPE_DATE): self = .date
        case Int32(LOOKD_TYPE_TIME): self = .time
        case Int32(LOOKD_TYPE_PLURAL): self = .plural
        case Int32(LOOKD_TYPE_SELECT): self = .select
        case Int32(LOOKD_TYPE_SELECTORDINAL): self = .selectordinal
        case Int32(LOOKD_TYPE_CHOICE): self = .choice
        case Int32(LOOKD_TYPE_STRING): self = .string
        default: self = .other
        }
    }

    /// Whether an argument of this kind can be formatted by a use of this type.
    func accepts(_ argument: Argument) -> Bool {
        switch (self, argument) {
        case (.string, _): true
        case (.number, .integer), (.number, .double), (.plural, .integer), (.plural, .double),
             (.selectordinal, .integer), (.selectordinal, .double), (.choice, .integer), (.choice, .double),
             (.other, .integer), (.other, .double): true
        case (.date, .date), (.time, .date): true
        case (.select, .string): true
        default: false
        }
    }

    /// What this use needs, for error messages.
    var expectation: String {
        switch self {
        case .string: "any value"
        case .number, .plural, .selectordinal, .choice, .other: "a number (integer or double)"
        case .date, .time: "a date"
        case .select: "a string"
        }
    }
}
