/// A topic button on the chat's welcome screen (at most 6).
public struct Topic: Hashable, Sendable {
    /// Matches `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`; unique within the look. Chat links name topics by id.
    public var id: String
    /// The button's text.
    public var label: LocalizedText
    /// An SF Symbol name, e.g. `creditcard`.
    public var symbol: String
    /// Text put in the composer when the topic is chosen (never replacing what the person typed), if any.
    public var prefill: LocalizedText?
    /// The preset this topic came from (`billing`, `bug`, `idea`), if any.
    public var preset: String?

    public init(id: String, label: LocalizedText, symbol: String, prefill: LocalizedText? = nil, preset: String? = nil) {
        self.id = id
        self.label = label
        self.symbol = symbol
        self.prefill = prefill
        self.preset = preset
    }

    /// The presets, by name: billing, bug, idea. Their texts are the catalogs' `topic.<name>` and `topic.<name>.prefill`.
    public static let presets: [String: Topic] = ["billing": billing, "bug": bug, "idea": idea]

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

    /// At most this many topics show.
    public static let maximumCount = 6
}
