/// How one palette's two distinctions the chat relies on on colour — the person's bubbles against the team's, and the
/// tint against the background — survive one colour-vision deficiency. See ``AccessibilityReport``.
public struct CVDComparison: Hashable, Sendable {
    /// ΔE-OK under which two fills are reported as hard to tell apart: 0.1, about five just-noticeable differences
    /// (lookd's own line for the report, not a standard's).
    public static let distinctMinimum = 0.1

    /// One distinction: the two colours as simulated, and their ΔE-OK with normal vision and with the deficiency.
    public struct Distinction: Hashable, Sendable {
        public var first: RGBColor
        public var second: RGBColor
        public var simulatedFirst: RGBColor
        public var simulatedSecond: RGBColor
        /// ΔE-OK of the colours as they are, and as simulated (both ≥ 0).
        public var normalDistance: Double
        public var simulatedDistance: Double

        public init(_ first: RGBColor, _ second: RGBColor, _ deficiency: ColorVisionDeficiency) {
            self.first = first
            self.second = second
            simulatedFirst = deficiency.simulate(first)
            simulatedSecond = deficiency.simulate(second)
            normalDistance = OKLab(first).distance(to: OKLab(second))
            simulatedDistance = OKLab(simulatedFirst).distance(to: OKLab(simulatedSecond))
        }

        /// Distinct with normal vision but not with the deficiency: the difference was carried by hue alone.
        public var isLost: Bool {
            normalDistance >= CVDComparison.distinctMinimum && simulatedDistance < CVDComparison.distinctMinimum
        }
    }

    public var deficiency: ColorVisionDeficiency
    public var appearance: Appearance
    public var contrast: ContrastLevel
    /// The person's bubble fill against the team's.
    public var bubbles: Distinction
    /// The tint against the background.
    public var tintOnBackground: Distinction
    /// The WCAG ratio of the simulated tint on the simulated background.
    public var simulatedTintRatio: Double
    /// The simulated text on the person's bubble: what that person reads the bubble's text against.
    public var simulatedBubbleText: RGBColor

    /// The palette's name on the wire: `light`, `dark`, `increasedContrast.light` or `increasedContrast.dark`.
    public var appearanceName: String { paletteName(appearance, contrast) }

    public init(_ deficiency: ColorVisionDeficiency, palette: AppearancePalette, appearance: Appearance, contrast: ContrastLevel) {
        self.deficiency = deficiency
        self.appearance = appearance
        self.contrast = contrast
        bubbles = Distinction(palette.bubbleFill, palette.teamBubbleFill, deficiency)
        tintOnBackground = Distinction(palette.tint, palette.background, deficiency)
        simulatedTintRatio = Contrast.ratio(tintOnBackground.simulatedFirst, tintOnBackground.simulatedSecond)
        simulatedBubbleText = deficiency.simulate(palette.bubbleText)
    }
}
