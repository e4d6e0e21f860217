import StableJSON

/// Resolves a look: each field on its own, dashboard > code > inferred > default, and the palette from the
/// resolved accent. The same layers always give an equal look (and byte-identical JSON).
public struct Resolver: Sendable {
    /// Where palettes are memoized, if anywhere. Without one every resolve computes its palette.
    public let paletteCache: PaletteCache?

    /// - Parameter paletteCache: a memo to share between resolves (a service keeps one per process); nil
    ///   computes every palette afresh, which is what a single resolve in an app needs.
    public init(paletteCache: PaletteCache? = nil) {
        self.paletteCache = paletteCache
    }

    public func resolve(_ layers: LookLayers) -> ResolvedLook {
        // Values are moved out of the readings (`take()`), not copied: no reference counting for what the look keeps.
        var dashboard = LayerReading(layers.dashboard, as: .dashboard)
        var code = LayerReading(layers.code, as: .code)
        var inferred = LayerReading(layers.inferred, as: .inferred)

        // Plain optionals, no key paths: a key path applied at run time goes through generic metadata and
        // copies each layer's reading.
        func pick<Value>(_ dashboard: Value?, _ code: Value?, _ inferred: Value?, default fallback: Value) -> ResolvedField<Value> {
            if let dashboard { return ResolvedField(value: dashboard, source: .dashboard) }
            if let code { return ResolvedField(value: code, source: .code) }
            if let inferred { return ResolvedField(value: inferred, source: .inferred) }
            return ResolvedField(value: fallback, source: .default)
        }

        let accent = pick(dashboard.accent, code.accent, inferred.accent, default: LookDefaults.accent)
        // `String?` values: each layer's name wrapped once more, so that a layer without one falls through.
        let appName: ResolvedField<String?> = pick(dashboard.appName.take().map(Optional.some), code.appName.take().map(Optional.some), inferred.appName.take().map(Optional.some), default: nil)
        let appIcon: ResolvedField<AppIcon>
        if inferred.hasBundleIcon == true {
            appIcon = ResolvedField(value: .bundle, source: .inferred)
        } else if let url = dashboard.appIconUrl.take() {
            appIcon = ResolvedField(value: .url(url), source: .dashboard)
        } else if let name = appName.value, let letter = AppIcon.monogram(of: name) {
            appIcon = ResolvedField(value: .monogram(letter), source: appName.source)
        } else {
            appIcon = ResolvedField(value: .glyph, source: .default)
        }

        return ResolvedLook(
            accent: accent,
            corners: pick(dashboard.corners, code.corners, inferred.corners, default: LookDefaults.corners),
            font: pick(dashboard.font, code.font, inferred.font, default: LookDefaults.font),
            headerStyle: pick(dashboard.headerStyle, code.headerStyle, inferred.headerStyle, default: LookDefaults.headerStyle),
            replyExpectation: pick(dashboard.replyExpectation.take(), code.replyExpectation.take(), inferred.replyExpectation.take(), default: LookDefaults.replyExpectation),
            topics: pick(dashboard.topics.take(), code.topics.take(), inferred.topics.take(), default: LookDefaults.topics),
            appName: appName,
            appIcon: appIcon,
            branding: pick(dashboard.branding, code.branding, inferred.branding, default: LookDefaults.branding),
            palette: paletteCache?.palette(for: accent.value) ?? Palette(accent: accent.value),
            diagnostics: Self.concatenated(dashboard.takeDiagnostics(), code.takeDiagnostics(), inferred.takeDiagnostics())
        )
    }

    /// The three layers' diagnostics in order; no new array when at most one layer has any (the usual case).
    private static func concatenated(_ first: [Diagnostic], _ second: [Diagnostic], _ third: [Diagnostic]) -> [Diagnostic] {
        if second.isEmpty && third.isEmpty { return first }
        if first.isEmpty && third.isEmpty { return second }
        if first.isEmpty && second.isEmpty { return third }
        return first + second + third
    }
}

/// The SDK's defaults: the value of every field no layer sets.
public enum LookDefaults {
    /// iOS systemBlue, `#007AFF` light / `#0A84FF` dark.
    public static let accent = AccentColor.systemBlue
    /// `round`: 18 pt corners.
    public static let corners = Corners.round
    /// The system font.
    public static let font = FontStyle.system
    /// The team header.
    public static let headerStyle = HeaderStyle.team
    /// "Usually replies within a day", localized from the catalogs' `header.replyExpectation.day`.
    public static let replyExpectation = LocalizedText.catalog(key: "header.replyExpectation.day", english: "Usually replies within a day")
    /// No topic buttons.
    public static let topics: [Topic] = []
    /// The Free plan's lockup shows unless the dashboard (which knows the plan) turns it off.
    public static let branding = true
}
