/// A topic button on the chat's welcome screen (at most 6).
///
/// A value type whose fields live in one shared, immutable-until-written storage object (copy on write): copying
/// a topic, or keeping a preset in a look, counts one reference rather than one per text. Thread-safe to read
/// and copy from any thread, like any value.
public struct Topic: Hashable, Sendable {
    /// The fields. Never mutated once shared: a setter copies it first unless this topic holds the only reference.
    private final class Fields: Sendable {
        let id: String
        let label: LocalizedText
        let symbol: String
        let prefill: LocalizedText?
        let preset: String?

        init(id: String, label: LocalizedText, symbol: String, prefill: LocalizedText?, preset: String?) {
            self.id = id
            self.label = label
            self.symbol = symbol
            self.prefill = prefill
            self.preset = preset
        }
    }

    private var fields: Fields

    /// Matches `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`; unique within the look. Chat links name topics by id.
    public var id: String {
        get { fields.id }
        set { fields = Fields(id: newValue, label: label, symbol: symbol, prefill: prefill, preset: preset) }
    }
    /// The button's text.
    public var label: LocalizedText {
        get { fields.label }
        set { fields = Fields(id: id, label: newValue, symbol: symbol, prefill: prefill, preset: preset) }
    }
    /// An SF Symbol name, e.g. `creditcard`.
    public var symbol: String {
        get { fields.symbol }
        set { fields = Fields(id: id, label: label, symbol: newValue, prefill: prefill, preset: preset) }
    }
    /// Text put in the composer when the topic is chosen (never replacing what the person typed), if any.
    public var prefill: LocalizedText? {
        get { fields.prefill }
        set { fields = Fields(id: id, label: label, symbol: symbol, prefill: newValue, preset: preset) }
    }
    /// The preset this topic came from (`billing`, `bug`, `idea`), if any.
    public var preset: String? {
        get { fields.preset }
        set { fields = Fields(id: id, label: label, symbol: symbol, prefill: prefill, preset: newValue) }
    }

    public init(id: String, label: LocalizedText, symbol: String, prefill: LocalizedText? = nil, preset: String? = nil) {
        fields = Fields(id: id, label: label, symbol: symbol, prefill: prefill, preset: preset)
    }

    /// Equal when every field is equal (the same storage is equal at once).
    public static func == (lhs: Topic, rhs: Topic) -> Bool {
        if lhs.fields === rhs.fields { return true }
        return lhs.id == rhs.id && lhs.label == rhs.label && lhs.symbol == rhs.symbol && lhs.prefill == rhs.prefill
            && lhs.preset == rhs.preset
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(label)
        hasher.combine(symbol)
        hasher.combine(prefill)
        hasher.combine(preset)
    }

    /// The presets, by name: billing, bug, idea. Their texts are the catalogs' `topic.<name>` and `topic.<name>.prefill`.
    public static let presets: [String: Topic] = ["billing": billing, "bug": bug, "idea": idea]

    // Built once: a look that uses a preset shares its storage.
    static let billing = preset("billing", key: "topic.billing", prefillKey: "topic.billing.prefill", symbol: "creditcard", label: "Billing",
                                prefill: "I have a question about a payment or my subscription.")
    static let bug = preset("bug", key: "topic.bug", prefillKey: "topic.bug.prefill", symbol: "ladybug", label: "Report a bug",
                            prefill: "Something isn't working: ")
    static let idea = preset("idea", key: "topic.idea", prefillKey: "topic.idea.prefill", symbol: "lightbulb", label: "Share an idea",
                             prefill: "I have an idea: ")

    /// A preset's texts are the catalogs' `topic.<name>` and `topic.<name>.prefill` (`key`, `prefillKey`); `label`
    /// and `prefill` are the English source texts.
    private static func preset(_ name: String, key: String, prefillKey: String, symbol: String, label: String, prefill: String) -> Topic {
        assert(key == "topic.\(name)" && prefillKey == "topic.\(name).prefill")
        return Topic(id: name, label: .catalog(key: key, english: label), symbol: symbol,
                     prefill: .catalog(key: prefillKey, english: prefill), preset: name)
    }

    /// The preset named `name` (`billing`, `bug`, `idea`), or nil.
    public static func preset(named name: String) -> Topic? {
        // The names differ in length: one comparison.
        switch name.utf8.count {
        case 7 where name == "billing": billing
        case 3 where name == "bug": bug
        case 4 where name == "idea": idea
        default: nil
        }
    }

    /// At most this many topics show.
    public static let maximumCount = 6
}
