import StableJSON

/// The fields a layer may carry, by their JSON names, and which layers may set each.
public enum LookField: String, Sendable, CaseIterable, Hashable {
    case accent
    case corners
    case font
    case headerStyle
    case replyExpectation
    case topics
    case appName
    case appIconUrl
    case hasBundleIcon
    case branding

    /// The fields by name (their raw values): one hash lookup per layer member, where `init(rawValue:)` compares
    /// the name with each field's in turn (about 4,000 instructions a resolve; callgrind, docs/benchmarks.md).
    public static let byName: [String: LookField] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The layers that may set this field. A value in another layer is ignored with `field_not_allowed`:
    /// the app icon URL comes from the dashboard only, the bundle icon from the app only, and branding (the
    /// Free plan's lockup) from the dashboard only, since only the server knows the plan.
    public func isAllowed(in layer: LookLayer) -> Bool {
        switch self {
        case .accent, .appName: layer != .default
        case .corners, .font, .headerStyle, .replyExpectation, .topics: layer == .dashboard || layer == .code
        case .appIconUrl, .branding: layer == .dashboard
        case .hasBundleIcon: layer == .inferred
        }
    }

    /// The input layers that may set this field, in precedence order.
    public var allowedLayers: [LookLayer] { LookLayer.inputs.filter(isAllowed(in:)) }
}

/// Length limits on team-supplied text, in Unicode scalars.
public enum LookLimits {
    public static let appName = 100
    public static let replyExpectation = 200
    public static let topicLabel = 60
    public static let topicPrefill = 1_000
    public static let symbol = 64
    public static let url = 2_048
    public static let localizedEntries = 100
}
