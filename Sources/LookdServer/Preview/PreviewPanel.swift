import LookResolver

/// One phone on the preview page: an appearance at a contrast level (the standard palette, 4.5:1, or the
/// increased-contrast palette, 7:1, which the SDK shows when the person has asked the system for more contrast).
public struct PreviewPanel: Hashable, Sendable {
    public var appearance: Appearance
    public var contrast: ContrastLevel
    /// The Dynamic Type size the texts are drawn at.
    public var textSize: TextSize
    /// When set, every colour is drawn as a person with this deficiency sees it (Machado 2009, severity 1.0).
    public var deficiency: ColorVisionDeficiency?

    public init(_ appearance: Appearance, _ contrast: ContrastLevel = .standard, textSize: TextSize = .standard,
                deficiency: ColorVisionDeficiency? = nil) {
        self.appearance = appearance
        self.contrast = contrast
        self.textSize = textSize
        self.deficiency = deficiency
    }

    /// The `data-appearance` value: `light`, `dark`, `increased-light` or `increased-dark`.
    public var name: String {
        contrast == .standard ? appearance.rawValue : "increased-\(appearance.rawValue)"
    }

    /// The label above the phone, e.g. `Dark` or `Dark · Increased contrast`.
    var label: String {
        var label = appearance == .light ? "Light" : "Dark"
        if contrast == .increased { label += " · Increased contrast" }
        if textSize != .standard { label += " · \(textSize.label)" }
        if let deficiency { label += " · \(deficiency.rawValue.prefix(1).uppercased() + deficiency.rawValue.dropFirst()) (simulated)" }
        return label
    }
}
