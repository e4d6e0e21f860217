/// A JSON value as its file holds it: object members in file order (duplicates included, when read with
/// ``JSONReader/DocumentOptions/duplicateKeys`` `.keep`), numbers as written, and the ``JSONPosition`` of every
/// value and key. For files whose order and places matter to people (catalogs, String Catalogs, lint input);
/// ``JSONValue`` is the unordered value for everything else.
///
/// Read with ``JSONReader/readDocument(_:options:)``; write with ``JSONWriter/write(_:)-(JSONDocument)``, which
/// keeps member order. Build one in code with ``init(_:position:)`` (positions then default to
/// ``JSONPosition/start``). Thread-safe: a value type.
public struct JSONDocument: Sendable, Hashable {
    /// The value itself; containers hold documents, so every nested value has its own position.
    public enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        case number(JSONNumber)
        case string(String)
        case array([JSONDocument])
        case object([Member])
    }

    /// One `"key": value` of an object.
    public struct Member: Sendable, Hashable {
        public var key: String
        /// The key's opening quote.
        public var keyPosition: JSONPosition
        public var value: JSONDocument

        public init(key: String, keyPosition: JSONPosition = .start, value: JSONDocument) {
            self.key = key
            self.keyPosition = keyPosition
            self.value = value
        }

        /// A member built in code: `key` at ``JSONPosition/start``.
        public init(_ key: String, _ value: JSONDocument) {
            self.init(key: key, value: value)
        }
    }

    public var value: Value
    /// The value's first byte (`{`, `[`, `"`, a digit, `-`, `t`, `f` or `n`).
    public var position: JSONPosition

    public init(_ value: Value, position: JSONPosition = .start) {
        self.value = value
        self.position = position
    }

    /// Values built in code, at ``JSONPosition/start``: `.object([.init("a", .string("x"))])`.
    public static func object(_ members: [Member]) -> JSONDocument { JSONDocument(.object(members)) }
    public static func array(_ elements: [JSONDocument]) -> JSONDocument { JSONDocument(.array(elements)) }
    public static func string(_ text: String) -> JSONDocument { JSONDocument(.string(text)) }
    public static func number(_ number: JSONNumber) -> JSONDocument { JSONDocument(.number(number)) }
    public static func bool(_ flag: Bool) -> JSONDocument { JSONDocument(.bool(flag)) }
    public static let null = JSONDocument(.null)

    /// The first member named `key`, if this is an object that has one. O(members).
    public subscript(key: String) -> JSONDocument? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The members in file order, if this is an object.
    public var members: [Member]? { if case .object(let members) = value { members } else { nil } }
    /// The elements, if this is an array.
    public var elements: [JSONDocument]? { if case .array(let elements) = value { elements } else { nil } }
    /// The string, if this is one.
    public var stringValue: String? { if case .string(let text) = value { text } else { nil } }
    /// The boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let flag) = value { flag } else { nil } }
    /// The number, if this is one.
    public var numberValue: JSONNumber? { if case .number(let number) = value { number } else { nil } }
    /// The number as a `Double` (see ``JSONNumber/double``), if this is a number.
    public var doubleValue: Double? { numberValue?.double }
    /// The number as an exact `Int` (see ``JSONNumber/int``), if this is a number naming one.
    public var intValue: Int? { numberValue?.int }
    /// Whether this is `null`.
    public var isNull: Bool { if case .null = value { true } else { false } }

    /// The value's JSON type for messages: "null", "boolean", "number", "string", "array", "object".
    public var typeName: String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Every key that this object (not its nested values) names more than once: for each repeat, the member
    /// that named it first and the repeat, in file order. Empty for non-objects. O(members).
    public var duplicateMembers: [(first: Member, repeat: Member)] {
        guard case .object(let members) = value, members.count > 1 else { return [] }
        var firstIndex: [String: Int] = [:]
        var result: [(first: Member, repeat: Member)] = []
        for (index, member) in members.enumerated() {
            if let earlier = firstIndex[member.key] {
                result.append((members[earlier], member))
            } else {
                firstIndex[member.key] = index
            }
        }
        return result
    }

    /// The unordered ``JSONValue`` of this document, positions dropped; of duplicate keys the last wins.
    public var jsonValue: JSONValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number)
        case .string(let text): .string(text)
        case .array(let elements): .array(elements.map(\.jsonValue))
        case .object(let members):
            .object(JSONObject(members.lazy.map { ($0.key, $0.value.jsonValue) }))
        }
    }
}
