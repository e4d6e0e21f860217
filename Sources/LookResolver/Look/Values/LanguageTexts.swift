import StableJSON

/// Texts by BCP 47 language tag (`"de"`, `"pt-BR"`), each tag once, in the tags' order.
///
/// Kept as the JSON object they were read from, whose members are all strings: a look read from JSON shares
/// that object's storage rather than copying every text into a dictionary. Tags compare as Swift strings
/// (exactly, not case-insensitively; see ``LocalizedText/text(preferring:)`` for the lookup a reader wants).
/// Thread-safe: a value type.
public struct LanguageTexts: Sendable, Hashable {
    /// Every value is a `.string`.
    private let object: JSONObject

    /// The texts of `dictionary`.
    public init(_ dictionary: [String: String]) {
        object = JSONObject(dictionary.mapValues(JSONValue.string))
    }

    /// `object`, whose values the caller checked are all strings.
    init(strings object: JSONObject) {
        self.object = object
    }

    /// How many languages.
    public var count: Int { object.count }
    /// Whether there are none.
    public var isEmpty: Bool { object.isEmpty }
    /// The tags, in sorted order.
    public var tags: [String] { object.keys }

    /// The text for exactly `tag`, if any. O(log n).
    public subscript(tag: String) -> String? { object[tag]?.stringValue }

    /// Calls `body` with each tag and its text, in the tags' order, without copying them.
    public func forEach(_ body: (String, String) throws -> Void) rethrows {
        for index in object.members.indices {
            if case .string(let text) = object.members[index].value { try body(object.members[index].key, text) }
        }
    }
}
