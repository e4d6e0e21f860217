import LookResolver

/// One phone on the preview page: an appearance at a contrast level (the standard palette, 4.5:1, or the
/// increased-contrast palette, 7:1, which the SDK shows when the person has asked the system for more contrast).
public struct PreviewPanel: Hashable, Sendable {
    public var appearance: Appearance
    public var contrast: ContrastLevel

    public init(_ appearance: Appearance, _ contrast: ContrastLevel = .standard) {
        self.appearance = appearance
        self.contrast = contrast
    }

    /// The `data-appearance` value: `light`, `dark`, `increased-light` or `increased-dark`.
    public var name: String {
        contrast == .standard ? appearance.rawValue : "increased-\(appearance.rawValue)"
    }

    /// The label above the phone, e.g. `Dark` or `Dark · Increased contrast`.
    var label: String {
        let base = appearance == .light ? "Light" : "Dark"
        return contrast == .standard ? base : "\(base) · Increased contrast"
    }
}
