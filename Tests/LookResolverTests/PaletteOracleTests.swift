import Testing
@testable import LookResolver

/// The palette against an independent oracle: `Tests/Oracles/palette_oracle.py` computes each accent's four palettes
/// and adjustments from the published WCAG and OKLab formulas and the rules docs/look.md states, and its output is
/// checked in as `PaletteOracleValues.swift`. Nothing expected here was produced by lookd's code.
@Suite("The palette matches the independent oracle (WCAG + OKLab + docs/look.md's rules)", .timeLimit(.minutes(10)))
struct PaletteOracleTests {
    @Test(arguments: paletteOracleCases.map(\.accent))
    func paletteMatchesTheOracle(accent: String) throws {
        let expected = try #require(paletteOracleCases.first { $0.accent == accent })
        let color = try #require(RGBColor(hex: accent))
        let palette = Palette(accent: AccentColor(color))
        for (name, actual, wanted) in [("light", palette.light, expected.light), ("dark", palette.dark, expected.dark),
                                       ("increasedContrast.light", palette.increasedContrast.light, expected.increasedLight),
                                       ("increasedContrast.dark", palette.increasedContrast.dark, expected.increasedDark)] {
            #expect(Self.roles(actual) == wanted, "\(accent) \(name)")
        }
        #expect(palette.adjustments.count == expected.adjustments.count, "\(accent): adjustments")
        for (actual, wanted) in zip(palette.adjustments, expected.adjustments) {
            #expect(actual.role.rawValue == wanted.role && actual.appearanceName == wanted.appearance, "\(accent)")
            #expect(actual.adjusted.hex == wanted.adjusted, "\(accent) \(wanted.appearance) \(wanted.role)")
            #expect(abs(actual.ratioBefore - wanted.ratioBefore) < 1e-9, "\(accent) \(wanted.appearance) \(wanted.role): ratio before")
            #expect(abs(actual.ratioAfter - wanted.ratioAfter) < 1e-9, "\(accent) \(wanted.appearance) \(wanted.role): ratio after")
            #expect(abs(actual.deltaEOK - wanted.deltaEOK) < 1e-9, "\(accent) \(wanted.appearance) \(wanted.role): ΔE-OK")
            #expect(abs(actual.hueShift - wanted.hueShift) < 1e-6, "\(accent) \(wanted.appearance) \(wanted.role): hue shift")
        }
    }

    private static func roles(_ palette: AppearancePalette) -> [String: String] {
        ["background": palette.background.hex, "bubbleFill": palette.bubbleFill.hex, "bubbleText": palette.bubbleText.hex,
         "tint": palette.tint.hex, "text": palette.text.hex, "secondaryText": palette.secondaryText.hex,
         "teamBubbleFill": palette.teamBubbleFill.hex, "teamBubbleText": palette.teamBubbleText.hex]
    }
}
