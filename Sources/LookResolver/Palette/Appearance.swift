/// The system appearance a palette is for. The chat's background is white in light and black in dark.
public enum Appearance: String, Sendable, Codable, CaseIterable, Hashable {
    case light
    case dark

    /// The chat's background: `#FFFFFF` in light, `#000000` in dark.
    public var background: RGBColor { self == .light ? .white : .black }

    /// Body text on the background: black in light, white in dark (21:1).
    public var text: RGBColor { self == .light ? .black : .white }

    /// Secondary text on the background (delivery states, the lockup, timestamps):
    /// `#6C6C70` on white (5.0:1) and `#8E8E93` on black (6.8:1), iOS's secondary label colours.
    public var secondaryText: RGBColor {
        self == .light ? RGBColor(red: 0x6C, green: 0x6C, blue: 0x70) : RGBColor(red: 0x8E, green: 0x8E, blue: 0x93)
    }

    /// Secondary text at `contrast`: ``secondaryText`` in the standard palette; in the increased-contrast one
    /// the same grey taken to 7:1 on the background, `#58585C` on white and `#95959A` on black (hue kept,
    /// minimal change, like the accent).
    public func secondaryText(_ contrast: ContrastLevel) -> RGBColor {
        guard contrast == .increased else { return secondaryText }
        return self == .light ? RGBColor(red: 0x58, green: 0x58, blue: 0x5C) : RGBColor(red: 0x95, green: 0x95, blue: 0x9A)
    }

    /// The team's bubbles (the same in both contrast levels: 17:1 and 15:1 with ``text``): `#E9E9EB` in light and `#262628` in dark, as in Messages, with ``text`` on them.
    public var teamBubbleFill: RGBColor {
        self == .light ? RGBColor(red: 0xE9, green: 0xE9, blue: 0xEB) : RGBColor(red: 0x26, green: 0x26, blue: 0x28)
    }

    /// Which way a tint must move to gain contrast on this background.
    var awayFromBackground: HueKeptAdjustment.Direction { self == .light ? .darker : .lighter }
}
