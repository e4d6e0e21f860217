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

    /// A palette as given (no contrast is checked): e.g. one read back from a server's JSON.
    public init(background: RGBColor, bubbleFill: RGBColor, bubbleText: RGBColor, tint: RGBColor, text: RGBColor,
                secondaryText: RGBColor, teamBubbleFill: RGBColor, teamBubbleText: RGBColor) {
        self.background = background
        self.bubbleFill = bubbleFill
        self.bubbleText = bubbleText
        self.tint = tint
        self.text = text
        self.secondaryText = secondaryText
        self.teamBubbleFill = teamBubbleFill
        self.teamBubbleText = teamBubbleText
    }
}

/// How much contrast the person asked for: the standard palette (WCAG AA, 4.5:1) or the increased-contrast one
/// (WCAG AAA, 7:1) for iOS *Increase Contrast* (`UIAccessibility.isDarkerSystemColorsEnabled`) and Android
/// high-contrast text.
public enum ContrastLevel: String, Sendable, Codable, CaseIterable, Hashable {
    case standard
    case increased

    /// The ratio the bubble text on its fill, the tint on the background, the text on the background and the
    /// team's bubble text on its fill each reach: 4.5 (AA) or 7 (AAA), never rounded.
    public var minimumRatio: Double { self == .standard ? Contrast.textMinimum : Contrast.enhancedMinimum }
}

/// One colour the palette changed so that text on it, or it on the background, stays readable.
public struct ColorAdjustment: Hashable, Sendable {
    public enum Role: String, Sendable, Codable {
        /// The person's bubble fill, deepened so that white text on it reaches ``ColorAdjustment/minimumRatio``.
        case bubbleFill
        /// The tint, nudged away from the background until it reaches ``ColorAdjustment/minimumRatio`` on it.
        case tint
    }

    public var role: Role
    public var appearance: Appearance
    /// Which palette the change is in: the standard one or the increased-contrast one.
    public var contrast: ContrastLevel
    public var direction: HueKeptAdjustment.Direction
    /// The accent as given, and the colour used instead.
    public var original: RGBColor
    public var adjusted: RGBColor
    /// The colour the ratio is measured against: white text for a bubble fill, the background for a tint.
    public var against: RGBColor
    /// The threshold the adjusted colour reaches: 4.5 in the standard palette, 7 in the increased-contrast one.
    public var minimumRatio: Double
    /// Exact WCAG ratios against ``against``, unrounded.
    public var ratioBefore: Double
    public var ratioAfter: Double
    /// ΔE-OK between original and adjusted (0.02 is about a just-noticeable difference).
    public var deltaEOK: Double
    /// How far the OKLCH hue moved, in degrees (meaningless for greys).
    public var hueShift: Double

    /// An adjustment as given (nothing is recomputed): e.g. one read back from a server's JSON.
    public init(role: Role, appearance: Appearance, contrast: ContrastLevel, direction: HueKeptAdjustment.Direction,
                original: RGBColor, adjusted: RGBColor, against: RGBColor, minimumRatio: Double, ratioBefore: Double,
                ratioAfter: Double, deltaEOK: Double, hueShift: Double) {
        self.role = role
        self.appearance = appearance
        self.contrast = contrast
        self.direction = direction
        self.original = original
        self.adjusted = adjusted
        self.against = against
        self.minimumRatio = minimumRatio
        self.ratioBefore = ratioBefore
        self.ratioAfter = ratioAfter
        self.deltaEOK = deltaEOK
        self.hueShift = hueShift
    }

    /// The palette the change is in, as the wire format names it: `light`, `dark`, `increasedContrast.light`
    /// or `increasedContrast.dark`.
    public var appearanceName: String {
        contrast == .standard ? appearance.rawValue : "increasedContrast.\(appearance.rawValue)"
    }
}

/// The increased-contrast palettes (WCAG AAA, 7:1), one per appearance. See ``Palette``.
public struct IncreasedContrastPalette: Hashable, Sendable {
    public var light: AppearancePalette
    public var dark: AppearancePalette

    public init(light: AppearancePalette, dark: AppearancePalette) {
        self.light = light
        self.dark = dark
    }

    public subscript(appearance: Appearance) -> AppearancePalette {
        appearance == .light ? light : dark
    }
}

/// The chat's colours in light and dark, derived from the accent by the contrast rules, at two levels:
/// the standard palette reaches 4.5:1 (WCAG AA) and the increased-contrast palette 7:1 (WCAG AAA):
/// - bubble: white text whenever white reaches 3:1 on the accent, with the fill deepened (hue kept, minimal
///   change) until white reaches the level's minimum; otherwise black text, which then always reaches 7:1 on
///   the unchanged accent (white under 3:1 means a luminance above 0.3, and (0.3 + 0.05) / 0.05 = 7);
/// - tint: the accent nudged darker on white or lighter on black (hue kept, minimal change) until it reaches
///   the level's minimum on the background;
/// - text, secondary text and the team's bubbles: fixed per appearance and level (see ``Appearance``).
///
/// An accent that already passes is never touched; every change is listed in ``adjustments``. Against the
/// white and black backgrounds every minimum is reachable with the hue kept (black on white and white on black
/// are 21:1), so every pair always passes. (``HueKeptAdjustment/adjust(_:_:toReach:against:)`` answers nil
/// where the far end itself cannot pass, e.g. 7:1 against a mid grey like `#777777`; the palette never asks
/// that, and would fall back to black or white.) Where the accent's chroma is too low for 8-bit colour to
/// hold its hue that dark or light, the hue may drift by more than 1°; for chroma ≥ 0.03 it stays within 1°.
public struct Palette: Hashable, Sendable {
    public var light: AppearancePalette
    public var dark: AppearancePalette
    /// The same roles at 7:1: what the SDK shows when the person has asked the system for more contrast.
    public var increasedContrast: IncreasedContrastPalette
    /// Standard light, standard dark, increased-contrast light, increased-contrast dark; bubble fill before tint
    /// within each.
    public var adjustments: [ColorAdjustment]

    /// A palette as given (no contrast is checked or derived): e.g. one read back from a server's JSON.
    public init(light: AppearancePalette, dark: AppearancePalette, increasedContrast: IncreasedContrastPalette,
                adjustments: [ColorAdjustment]) {
        self.light = light
        self.dark = dark
        self.increasedContrast = increasedContrast
        self.adjustments = adjustments
    }

    /// The palette the contrast rules derive from `accent` (above).
    public init(accent: AccentColor) {
        var adjustments: [ColorAdjustment] = []
        light = Self.palette(for: .light, .standard, accent: accent.light, adjustments: &adjustments)
        dark = Self.palette(for: .dark, .standard, accent: accent.dark, adjustments: &adjustments)
        increasedContrast = IncreasedContrastPalette(
            light: Self.palette(for: .light, .increased, accent: accent.light, adjustments: &adjustments),
            dark: Self.palette(for: .dark, .increased, accent: accent.dark, adjustments: &adjustments)
        )
        self.adjustments = adjustments
    }

    /// The standard palette for `appearance`.
    public subscript(appearance: Appearance) -> AppearancePalette {
        appearance == .light ? light : dark
    }

    /// The palette for `appearance` at `contrast`.
    public subscript(appearance: Appearance, contrast: ContrastLevel) -> AppearancePalette {
        contrast == .standard ? self[appearance] : increasedContrast[appearance]
    }

    static func palette(for appearance: Appearance, _ contrast: ContrastLevel, accent: RGBColor, adjustments: inout [ColorAdjustment]) -> AppearancePalette {
        let minimum = contrast.minimumRatio
        let background = appearance.background
        let bubbleText: RGBColor
        var bubbleFill = accent
        if Contrast.ratio(.white, accent) >= Contrast.largeTextMinimum {
            bubbleText = .white
            // Darkening always reaches the minimum against white (black gives 21:1), so the adjustment cannot fail.
            bubbleFill = HueKeptAdjustment.adjust(accent, .darker, toReach: minimum, against: .white) ?? .black
            if bubbleFill != accent {
                adjustments.append(.init(role: .bubbleFill, appearance: appearance, contrast: contrast, direction: .darker, original: accent, adjusted: bubbleFill, against: .white))
            }
        } else {
            // White under 3:1 means the accent's luminance is above 0.3, so black reaches more than 7:1 on it.
            bubbleText = .black
        }
        let direction = appearance.awayFromBackground
        // On white, the tint's target (the minimum against white) is the bubble's own: reuse it when it was
        // computed. Against pure white or black the far end always reaches 21:1, so the adjustment cannot fail.
        let tint = appearance == .light && bubbleText == .white
            ? bubbleFill
            : HueKeptAdjustment.adjust(accent, direction, toReach: minimum, against: background)
                ?? (direction == .darker ? .black : .white)
        if tint != accent {
            adjustments.append(.init(role: .tint, appearance: appearance, contrast: contrast, direction: direction, original: accent, adjusted: tint, against: background))
        }
        return AppearancePalette(
            background: background,
            bubbleFill: bubbleFill,
            bubbleText: bubbleText,
            tint: tint,
            text: appearance.text,
            secondaryText: appearance.secondaryText(contrast),
            teamBubbleFill: appearance.teamBubbleFill,
            teamBubbleText: appearance.text
        )
    }
}

extension ColorAdjustment {
    init(role: Role, appearance: Appearance, contrast: ContrastLevel, direction: HueKeptAdjustment.Direction, original: RGBColor, adjusted: RGBColor, against: RGBColor) {
        let before = OKLCH(original), after = OKLCH(adjusted)
        self.init(
            role: role,
            appearance: appearance,
            contrast: contrast,
            direction: direction,
            original: original,
            adjusted: adjusted,
            against: against,
            minimumRatio: contrast.minimumRatio,
            ratioBefore: Contrast.ratio(original, against),
            ratioAfter: Contrast.ratio(adjusted, against),
            deltaEOK: before.lab.distance(to: after.lab),
            hueShift: OKLCH.hueDifference(before.hue, after.hue)
        )
    }
}
