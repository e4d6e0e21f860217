/// The accessibility evidence for one resolved palette (all four: standard and increased contrast, light and dark):
/// every text/background pair with its WCAG 2.x ratio and level and its APCA Lc; for each colour-vision deficiency,
/// how far apart the person's and the team's bubbles, and the tint and the background, stay; and every adjustment
/// lookd made to reach its minimums. Pure and deterministic: the same palette gives the same report.
public struct AccessibilityReport: Hashable, Sendable {
    /// The palettes in report order: standard light, standard dark, increased-contrast light, increased-contrast dark.
    public static let palettes: [(Appearance, ContrastLevel)] = [(.light, .standard), (.dark, .standard), (.light, .increased), (.dark, .increased)]

    /// Per palette (in ``palettes`` order), the pairs in ``ContrastPair/Role`` order.
    public var pairs: [ContrastPair]
    /// Per deficiency (protanopia, deuteranopia, tritanopia), per palette.
    public var cvd: [CVDComparison]
    /// What the palette changed (``Palette/adjustments``).
    public var adjustments: [ColorAdjustment]

    public init(palette: Palette) {
        var pairs: [ContrastPair] = []
        var cvd: [CVDComparison] = []
        for (appearance, contrast) in Self.palettes {
            let colors = palette[appearance, contrast]
            func adjustment(_ role: ColorAdjustment.Role) -> ColorAdjustment? {
                palette.adjustments.first { $0.role == role && $0.appearance == appearance && $0.contrast == contrast }
            }
            for role in ContrastPair.Role.allCases {
                let (foreground, background, adjusted): (RGBColor, RGBColor, ColorAdjustment?) = switch role {
                case .bubbleText: (colors.bubbleText, colors.bubbleFill, adjustment(.bubbleFill))
                case .teamBubbleText: (colors.teamBubbleText, colors.teamBubbleFill, nil)
                case .text: (colors.text, colors.background, nil)
                case .secondaryText: (colors.secondaryText, colors.background, nil)
                case .tint: (colors.tint, colors.background, adjustment(.tint))
                }
                pairs.append(ContrastPair(appearance: appearance, contrast: contrast, role: role, foreground: foreground, background: background, adjustment: adjusted))
            }
        }
        for deficiency in ColorVisionDeficiency.allCases {
            for (appearance, contrast) in Self.palettes {
                cvd.append(CVDComparison(deficiency, palette: palette[appearance, contrast], appearance: appearance, contrast: contrast))
            }
        }
        self.pairs = pairs
        self.cvd = cvd
        adjustments = palette.adjustments
    }

    /// Pairs under the minimum lookd promises (always empty for a palette lookd made; a check for the claim).
    public var failingPairs: [ContrastPair] { pairs.filter { !$0.passes } }

    /// Distinctions lost to a deficiency (``CVDComparison/Distinction/isLost``).
    public var lostDistinctions: [(comparison: CVDComparison, what: String)] {
        cvd.flatMap { comparison in
            [("bubbles", comparison.bubbles), ("tintOnBackground", comparison.tintOnBackground)]
                .filter { $0.1.isLost }.map { (comparison, $0.0) }
        }
    }
}
