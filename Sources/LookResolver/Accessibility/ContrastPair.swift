/// One text/background pair of a palette with its contrast figures: WCAG 2.x (what lookd guarantees) and APCA
/// (advisory). See ``AccessibilityReport``.
public struct ContrastPair: Hashable, Sendable {
    /// Which text on which background.
    public enum Role: String, Sendable, CaseIterable {
        /// Text on the person's bubbles (`bubbleText` on `bubbleFill`).
        case bubbleText
        /// Text on the team's bubbles and the banner (`teamBubbleText` on `teamBubbleFill`).
        case teamBubbleText
        /// Body text on the background.
        case text
        /// Delivery states, timestamps, the lockup on the background.
        case secondaryText
        /// Links, chips and the send button's accent on the background (`tint` on `background`).
        case tint
    }

    /// WCAG 2.x's levels for text, each reached at or above its ratio (never rounded: 4.499 is not AA).
    public enum Level: String, Sendable {
        /// ≥ 7:1.
        case aaa = "AAA"
        /// ≥ 4.5:1.
        case aa = "AA"
        /// ≥ 3:1: large text only (18 pt, or 14 pt bold).
        case aaLarge = "AA large"
        /// Under 3:1.
        case fail

        public init(ratio: Double) {
            self = ratio >= Contrast.enhancedMinimum ? .aaa : ratio >= Contrast.textMinimum ? .aa
                : ratio >= Contrast.largeTextMinimum ? .aaLarge : .fail
        }
    }

    public var appearance: Appearance
    public var contrast: ContrastLevel
    public var role: Role
    public var foreground: RGBColor
    public var background: RGBColor
    /// The exact WCAG 2.x ratio, 1...21, unrounded.
    public var wcag: Double
    /// The APCA Lc of foreground on background, signed, unrounded (``APCA``).
    public var apcaLc: Double
    /// The ratio lookd's palette promises for this pair at this contrast level: 4.5 or 7.
    public var minimumRatio: Double
    /// The change lookd made to reach it (the bubble fill for ``Role/bubbleText``, the tint for ``Role/tint``),
    /// or nil when the colour was used as given (or is fixed).
    public var adjustment: ColorAdjustment?

    public init(appearance: Appearance, contrast: ContrastLevel, role: Role, foreground: RGBColor, background: RGBColor, adjustment: ColorAdjustment?) {
        self.appearance = appearance
        self.contrast = contrast
        self.role = role
        self.foreground = foreground
        self.background = background
        wcag = Contrast.ratio(foreground, background)
        apcaLc = APCA.lightnessContrast(text: foreground, background: background)
        minimumRatio = contrast.minimumRatio
        self.adjustment = adjustment
    }

    public var level: Level { Level(ratio: wcag) }
    /// True when ``wcag`` reaches ``minimumRatio`` (compared unrounded).
    public var passes: Bool { wcag >= minimumRatio }
    public var apcaUse: APCA.Use { APCA.Use(lc: apcaLc) }

    /// The palette's name on the wire: `light`, `dark`, `increasedContrast.light` or `increasedContrast.dark`.
    public var appearanceName: String { paletteName(appearance, contrast) }
}

/// A palette's name on the wire, as ``ColorAdjustment/appearanceName`` writes it.
func paletteName(_ appearance: Appearance, _ contrast: ContrastLevel) -> String {
    contrast == .standard ? appearance.rawValue : "increasedContrast.\(appearance.rawValue)"
}
