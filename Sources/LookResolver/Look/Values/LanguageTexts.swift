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

    /// The text of the first tag, in the tags' order, equal to `tag` ignoring case (as `lowercased()` compares them).
    /// O(n), without copying: a text has a handful of languages (a dictionary of them, made per call, was about a
    /// tenth of each fetch miss's instructions).
    func first(ignoringCase tag: String) -> String? {
        for member in object.members where Self.equalIgnoringCase(member.key, tag) {
            if case .string(let text) = member.value { return text }
        }
        return nil
    }

    /// `a.lowercased() == b.lowercased()`, without making either for ASCII text (every language tag).
    static func equalIgnoringCase(_ a: String, _ b: String) -> Bool {
        let asciiEqual = a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8) { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
        }
        if asciiEqual { return true }
        // ASCII text that differs here differs lowercased too; text outside ASCII may still match (and change length).
        guard a.utf8.contains(where: { $0 >= 0x80 }) || b.utf8.contains(where: { $0 >= 0x80 }) else { return false }
        return a.lowercased() == b.lowercased()
    }

    /// Calls `body` with each tag and its text, in the tags' order, without copying them.
    public func forEach(_ body: (String, String) throws -> Void) rethrows {
        for index in object.members.indices {
            if case .string(let text) = object.members[index].value { try body(object.members[index].key, text) }
        }
    }
}
