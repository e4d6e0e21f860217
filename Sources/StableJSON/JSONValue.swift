/// Any JSON value, as RFC 8259 defines it. Numbers keep their literal (``JSONNumber``), so a value read by
/// ``JSONReader`` and written by ``JSONWriter`` keeps every number exactly. Objects are unordered: the writer
/// sorts their keys by UTF-8 bytes, so equal values always give equal bytes.
///
/// Read with ``JSONReader/read(_:limits:)`` (strict) or ``init(parsing:)``; write with ``JSONWriter``.
/// `Codable` conformance exists for code that goes through Foundation's coders; those coders do not keep number
/// literals and are lenient, so prefer the reader and writer. Objects are ``JSONObject``s (their members sorted,
/// each key once); a dictionary literal builds one: `.object(["a": .string("x")])`. Thread-safe: a value type.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// An object of `members`, sorted (see ``JSONObject``).
    public static func object(_ members: [String: JSONValue]) -> JSONValue { .object(JSONObject(members)) }

    /// Reads `text` strictly (see ``JSONReader``). Throws ``JSONReadError``.
    public init(parsing text: String, limits: JSONReader.Limits = .default) throws {
        self = try JSONReader.read(Array(text.utf8), limits: limits)
    }

    /// A short name of the value's JSON type, for messages: "null", "boolean", "number", "string", "array",
    /// "object".
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The number, if this is one.
    public var numberValue: JSONNumber? { if case .number(let value) = self { value } else { nil } }
    /// The number as a `Double` (see ``JSONNumber/double``), if this is a number.
    public var doubleValue: Double? { numberValue?.double }
    /// The number as an exact `Int` (see ``JSONNumber/int``), if this is a number naming one.
    public var intValue: Int? { numberValue?.int }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    /// The members, if this is an object.
    public var objectValue: JSONObject? { if case .object(let value) = self { value } else { nil } }
    /// Whether this is `null`.
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The member named `key`, if this is an object that has one.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? container.decode(Double.self), let number = JSONNumber(value) {
            self = .number(number)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode(JSONObject.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if let exact = Int(value.literal) { try container.encode(exact) } else { try container.encode(value.double) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
