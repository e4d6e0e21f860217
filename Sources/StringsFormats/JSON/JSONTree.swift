/// A JSON document that keeps object members in file order, with the position of every value — what the
/// String Catalog and lookd catalog readers need (the order of keys is part of a catalog, positions are
/// where lint findings point). Immutable value.
public struct JSONTree: Sendable, Hashable {
    public indirect enum Value: Sendable, Hashable {
        case string(String)
        /// The number as written.
        case number(String)
        case bool(Bool)
        case null
        case array([JSONTree])
        case object([Member])
    }

    public struct Member: Sendable, Hashable {
        public let key: String
        public let value: JSONTree
    }

    public let value: Value
    /// Where the value starts.
    public let position: FilePosition

    /// The member named `key` of an object, nil otherwise.
    public subscript(key: String) -> JSONTree? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    public var integer: Int? {
        if case .number(let text) = value { return Int(text) }
        return nil
    }

    public var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// A short name for error messages: "a string", "an object", …
    public var kindName: String {
        switch value {
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
