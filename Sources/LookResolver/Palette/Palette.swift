/// The colours the chat uses in one appearance, each an opaque 8-bit sRGB colour.
public struct AppearancePalette: Hashable, Sendable {
    /// The chat's background (white or black).
    public var background: RGBColor
    /// The person's bubbles: the accent, deepened when white text on it would miss 4.5:1.
    public var bubbleFill: RGBColor
    /// Text on the person's bubbles: white when white reaches 3:1 on the accent, else black.
    public var bubbleText: RGBColor
    /// The accent as text or icons on the background (links, chips, the send button), at least 4.5:1 on it.
    public var tint: RGBColor
    /// Body text, secondary text and the team's bubbles (fixed; see ``Appearance``).
    public var text: RGBColor
    public var secondaryText: RGBColor
    public var teamBubbleFill: RGBColor
    public var teamBubbleText: RGBColor
}

/// One colour the palette changed so that text on it, or it on the background, stays readable.
public struct ColorAdjustment: Hashable, Sendable {
    public enum Role: String, Sendable, Codable {
        /// The person's bubble fill, deepened so that white text on it reaches 4.5:1.
        case bubbleFill
        /// The tint, nudged away from the background until it reaches 4.5:1 on it.
        case tint
    }

    public var role: Role
    public var appearance: Appearance
    public var direction: HueKeptAdjustment.Direction
    /// The accent as given, and the colour used instead.
    public var original: RGBColor
    public var adjusted: RGBColor
    /// The colour the ratio is measured against: white text for a bubble fill, the background for a tint.
    public var against: RGBColor
    /// The threshold the adjusted colour reaches (4.5).
    public var minimumRatio: Double
    /// Exact WCAG ratios against ``against``, unrounded.
    public var ratioBefore: Double
    public var ratioAfter: Double
    /// ΔE-OK between original and adjusted (0.02 is about a just-noticeable difference).
    public var deltaEOK: Double
    /// How far the OKLCH hue moved, in degrees (meaningless for greys).
    public var hueShift: Double
}

/// The chat's colours in light and dark, derived from the accent by the contrast rules:
/// - bubble: white text whenever white reaches 3:1 on the accent, with the fill deepened (hue kept, minimal
///   change) until white reaches 4.5:1; otherwise black text, which then always reaches 7:1 on the unchanged accent;
/// - tint: the accent nudged darker on white or lighter on black (hue kept, minimal change) until it reaches 4.5:1.
/// An accent that already passes is never touched; every change is listed in ``adjustments``.
public struct Palette: Hashable, Sendable {
    public var light: AppearancePalette
    public var dark: AppearancePalette
    /// Light adjustments first, then dark; bubble fill before tint.
    public var adjustments: [ColorAdjustment]

    public init(accent: AccentColor) {
        var adjustments: [ColorAdjustment] = []
        light = Self.palette(for: .light, accent: accent.light, adjustments: &adjustments)
        dark = Self.palette(for: .dark, accent: accent.dark, adjustments: &adjustments)
        self.adjustments = adjustments
    }

    public subscript(appearance: Appearance) -> AppearancePalette {
        appearance == .light ? light : dark
    }

    static func palette(for appearance: Appearance, accent: RGBColor, adjustments: inout [ColorAdjustment]) -> AppearancePalette {
        let background = appearance.background
        let bubbleText: RGBColor
        var bubbleFill = accent
        if Contrast.ratio(.white, accent) >= Contrast.largeTextMinimum {
            bubbleText = .white
            // Darkening always reaches 4.5:1 against white (black gives 21:1), so the adjustment cannot fail.
            bubbleFill = HueKeptAdjustment.adjust(accent, .darker, toReach: Contrast.textMinimum, against: .white) ?? .black
            if bubbleFill != accent {
                adjustments.append(.init(role: .bubbleFill, appearance: appearance, direction: .darker, original: accent, adjusted: bubbleFill, against: .white))
            }
        } else {
            // White under 3:1 means the accent's luminance is above 0.3, so black reaches more than 7:1 on it.
            bubbleText = .black
        }
        let direction = appearance.awayFromBackground
        // On white, the tint's target (4.5:1 against white) is the bubble's own: reuse it when it was computed.
        // Against pure white or black the far end always reaches 4.5:1, so the adjustment cannot fail.
        let tint = appearance == .light && bubbleText == .white
            ? bubbleFill
            : HueKeptAdjustment.adjust(accent, direction, toReach: Contrast.textMinimum, against: background)
                ?? (direction == .darker ? .black : .white)
        if tint != accent {
            adjustments.append(.init(role: .tint, appearance: appearance, direction: direction, original: accent, adjusted: tint, against: background))
        }
        return AppearancePalette(
            background: background,
            bubbleFill: bubbleFill,
            bubbleText: bubbleText,
            tint: tint,
            text: appearance.text,
            secondaryText: appearance.secondaryText,
            teamBubbleFill: appearance.teamBubbleFill,
            teamBubbleText: appearance.text
        )
    }
}

extension ColorAdjustment {
    init(role: Role, appearance: Appearance, direction: HueKeptAdjustment.Direction, original: RGBColor, adjusted: RGBColor, against: RGBColor) {
        let before = OKLCH(original), after = OKLCH(adjusted)
        self.init(
            role: role,
            appearance: appearance,
            direction: direction,
            original: original,
            adjusted: adjusted,
            against: against,
            minimumRatio: Contrast.textMinimum,
            ratioBefore: Contrast.ratio(original, against),
            ratioAfter: Contrast.ratio(adjusted, against),
            deltaEOK: before.lab.distance(to: after.lab),
            hueShift: OKLCH.hueDifference(before.hue, after.hue)
        )
    }
}
