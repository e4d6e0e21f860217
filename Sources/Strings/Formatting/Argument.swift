import Foundation

/// A value for a named message argument.
///
/// Which kinds an argument accepts depends on how the pattern uses it:
/// - `{name}`: any kind; strings are wrapped in Unicode isolates (see `BidiIsolation`), numbers and dates are
///   formatted by ICU for the locale;
/// - `{n, plural, …}`, `{n, selectordinal, …}`, `{n, number, …}`: `.integer` or `.double`;
/// - `{d, date, …}`, `{d, time, …}`: `.date`;
/// - `{s, select, …}`: `.string` (never isolated; it picks a branch).
public enum Argument: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case double(Double)
    /// A moment in time; formatted in the process's default time zone (`TZ`).
    case date(Date)

    /// The kind's bit position in accepted-kind masks.
    var kindBit: UInt8 {
        switch self {
        case .string: 0
        case .integer: 1
        case .double: 2
        case .date: 3
        }
    }

    /// A short name of the kind, for error messages: "string", "integer", "double" or "date".
    public var kindName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .double: "double"
        case .date: "date"
        }
    }
}

extension Argument: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
}
