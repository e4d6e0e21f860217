import LookResolver
import StableJSON

/// A team text set in the app's code: one text for every language, or texts by BCP 47 tag.
public enum LayerText: Sendable, Hashable {
    /// One text for every language.
    case text(String)
    /// Texts by language tag (`"de"`, `"pt-BR"`); languages not listed use `en`, else the first tag in sorted order.
    case localized([String: String])

    var jsonValue: JSONValue {
        switch self {
        case .text(let text): .string(text)
        case .localized(let texts): .object(texts.mapValues(JSONValue.string))
        }
    }
}

/// A topic button set in the app's code: a preset (`billing`, `bug`, `idea`) or the app's own.
public enum LayerTopic: Sendable, Hashable {
    /// A preset by name: `billing`, `bug` or `idea` (another name is ignored with an `unknown_value` diagnostic).
    case preset(String)
    /// The app's own topic. `id` must match `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`; `symbol` is an SF Symbol name
    /// (nil: `bubble.left`); `label` at most 60 characters, `prefill` at most 1,000.
    case custom(id: String, label: LayerText, symbol: String? = nil, prefill: LayerText? = nil)

    /// The `billing`, `bug` and `idea` presets.
    public static let billing = LayerTopic.preset("billing")
    public static let bug = LayerTopic.preset("bug")
    public static let idea = LayerTopic.preset("idea")

    var jsonValue: JSONValue {
        switch self {
        case .preset(let name):
            return .string(name)
        case .custom(let id, let label, let symbol, let prefill):
            var members: [String: JSONValue] = ["id": .string(id), "label": label.jsonValue]
            if let symbol { members["symbol"] = .string(symbol) }
            if let prefill { members["prefill"] = prefill.jsonValue }
            return .object(members)
        }
    }
}

/// The look fields the app sets in code (`config.appearance`, `config.topics`): the layer between the dashboard's and
/// the inferred one. Every field is optional; nil leaves it to the next layer. A value the resolver refuses (an empty
/// name, a label over its limit, an unknown preset) falls through to the next layer and is reported in the resolved
/// look's diagnostics: it never breaks the look.
public struct CodeLayer: Sendable, Hashable {
    public var accent: AccentColor?
    public var corners: Corners?
    public var font: FontStyle?
    public var headerStyle: HeaderStyle?
    /// At most 200 characters per text.
    public var replyExpectation: LayerText?
    /// At most 6 show.
    public var topics: [LayerTopic]?
    /// At most 100 characters, no bidi control.
    public var appName: String?

    public init(accent: AccentColor? = nil, corners: Corners? = nil, font: FontStyle? = nil, headerStyle: HeaderStyle? = nil,
                replyExpectation: LayerText? = nil, topics: [LayerTopic]? = nil, appName: String? = nil) {
        self.accent = accent
        self.corners = corners
        self.font = font
        self.headerStyle = headerStyle
        self.replyExpectation = replyExpectation
        self.topics = topics
        self.appName = appName
    }

    /// The layer as the resolver reads it (docs/look.md).
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [:]
        if let accent { members["accent"] = accent.layerValue }
        if let corners { members["corners"] = .string(corners.rawValue) }
        if let font { members["font"] = .string(font.rawValue) }
        if let headerStyle { members["headerStyle"] = .string(headerStyle.rawValue) }
        if let replyExpectation { members["replyExpectation"] = replyExpectation.jsonValue }
        if let topics { members["topics"] = .array(topics.map(\.jsonValue)) }
        if let appName { members["appName"] = .string(appName) }
        return .object(members)
    }
}

/// What the SDK infers from the app bundle: the AccentColor asset, the bundle's display name, and whether it has
/// an icon (CFBundleIcons). The lowest layer above the defaults.
public struct InferredLayer: Sendable, Hashable {
    public var accent: AccentColor?
    public var appName: String?
    public var hasBundleIcon: Bool?

    public init(accent: AccentColor? = nil, appName: String? = nil, hasBundleIcon: Bool? = nil) {
        self.accent = accent
        self.appName = appName
        self.hasBundleIcon = hasBundleIcon
    }

    /// The layer as the resolver reads it (docs/look.md).
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [:]
        if let accent { members["accent"] = accent.layerValue }
        if let appName { members["appName"] = .string(appName) }
        if let hasBundleIcon { members["hasBundleIcon"] = .bool(hasBundleIcon) }
        return .object(members)
    }
}

/// The app's own layers, merged under the published dashboard layer on the device. Thread-safe: a value type.
public struct AppLayers: Sendable, Hashable {
    /// The code layer as JSON (nil: none).
    public let code: JSONValue?
    /// The inferred layer as JSON (nil: none).
    public let inferred: JSONValue?

    /// The app's typed layers.
    public init(code: CodeLayer? = nil, inferred: InferredLayer? = nil) {
        self.code = code?.jsonValue
        self.inferred = inferred?.jsonValue
    }

    /// Layers given as JSON objects, as `lookd resolve` reads them (for tools and tests). Any JSON value is taken:
    /// one that is not an object is ignored by the resolver with an `invalid_layer` diagnostic.
    public init(codeJSON: JSONValue?, inferredJSON: JSONValue?) {
        code = codeJSON
        inferred = inferredJSON
    }
}

extension AccentColor {
    /// `"#RRGGBB"` when both appearances share the colour, else `{"dark", "light"}`.
    var layerValue: JSONValue {
        light == dark ? .string(light.hex) : .object(["light": .string(light.hex), "dark": .string(dark.hex)])
    }
}
