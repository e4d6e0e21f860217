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
        if a.utf8.count == b.utf8.count && equalIgnoringASCIICase(a, b) { return true }
        // ASCII text that differs here differs lowercased too; text outside ASCII may still match (and change length).
        guard a.utf8.contains(where: { $0 >= 0x80 }) || b.utf8.contains(where: { $0 >= 0x80 }) else { return false }
        return a.lowercased() == b.lowercased()
    }

    /// Whether `a` and `b`, of one UTF-8 length, are the same bytes but for ASCII letters' case. Over the strings'
    /// contiguous bytes when they have them (native strings do): `elementsEqual` over the two UTF-8 views was ~1,300
    /// instructions of each language a fill builds (docs/benchmarks.md, run S).
    private static func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
        let contiguous = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in zip(x, y).allSatisfy { sameLetter($0.0, $0.1) } }
        }
        return contiguous.flatMap { $0 } ?? a.utf8.elementsEqual(b.utf8, by: sameLetter)
    }

    /// Whether two bytes are equal, or the same ASCII letter in either case.
    private static func sameLetter(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
    }

    /// Calls `body` with each tag and its text, in the tags' order, without copying them.
    public func forEach(_ body: (String, String) throws -> Void) rethrows {
        for index in object.members.indices {
            if case .string(let text) = object.members[index].value { try body(object.members[index].key, text) }
        }
    }
}
