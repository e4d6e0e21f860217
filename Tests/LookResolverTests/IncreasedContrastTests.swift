import Foundation
import Testing
@testable import LookResolver

@Suite("Increased-contrast palettes (7:1) over 20,000 seeded accents", .timeLimit(.minutes(10)))
struct IncreasedContrastTests {
    @Test("every pair reaches 7:1, by the minimal hue-kept change, passing accents untouched, every change reported")
    func thresholdsAndHue() {
        var adjusted = 0
        var worstDrift = 0.0
        for accent in PalettePropertyTests.accents() {
            let palette = Palette(accent: AccentColor(accent))
            for appearance in Appearance.allCases {
                let colors = palette.increasedContrast[appearance]
                #expect(palette[appearance, .increased] == colors)
                #expect(Contrast.ratio(colors.bubbleText, colors.bubbleFill) >= 7, "\(accent) \(appearance) bubble")
                #expect(Contrast.ratio(colors.tint, colors.background) >= 7, "\(accent) \(appearance) tint")
                #expect(Contrast.ratio(colors.text, colors.background) >= 7)
                #expect(Contrast.ratio(colors.teamBubbleText, colors.teamBubbleFill) >= 7)
                #expect(Contrast.ratio(colors.secondaryText, colors.background) >= 7)
                // The same text colour as the standard palette: white whenever white reaches 3:1 on the accent.
                #expect(colors.bubbleText == palette[appearance].bubbleText)
                if colors.bubbleText == .white, Contrast.ratio(.white, accent) >= 7 { #expect(colors.bubbleFill == accent) }
                if colors.bubbleText == .black { #expect(colors.bubbleFill == accent, "black text needs no change") }
                if Contrast.ratio(accent, colors.background) >= 7 { #expect(colors.tint == accent) }
                for changed in [colors.bubbleFill, colors.tint] where changed != accent {
                    adjusted += 1
                    // Strictly above the line after quantisation: a shown ratio is never rounded up to 7.
                    #expect(Contrast.ratio(changed, changed == colors.tint ? colors.background : .white) > 7)
                    if let shift = PalettePropertyTests.hueDrift(from: accent, to: changed) {
                        worstDrift = max(worstDrift, shift)
                        #expect(shift <= 1, "\(accent) → \(changed) moved hue \(shift)°")
                    }
                }
            }
            let increased = palette.adjustments.filter { $0.contrast == .increased }
            for adjustment in increased {
                #expect(adjustment.minimumRatio == 7)
                #expect(adjustment.ratioBefore < 7 && adjustment.ratioAfter > 7)
                #expect(adjustment.appearanceName == "increasedContrast.\(adjustment.appearance.rawValue)")
                let colors = palette.increasedContrast[adjustment.appearance]
                #expect(adjustment.adjusted == (adjustment.role == .tint ? colors.tint : colors.bubbleFill))
            }
            // One reported change per changed role, in palette order.
            let changes = Appearance.allCases.flatMap { appearance -> [ColorAdjustment.Role] in
                let colors = palette.increasedContrast[appearance]
                return (colors.bubbleFill != accent ? [.bubbleFill] : []) + (colors.tint != accent ? [.tint] : [])
            }
            #expect(increased.map(\.role) == changes)
        }
        #expect(adjusted > PalettePropertyTests.accentCount, "the sample must exercise adjustments")
        #expect(worstDrift <= 1)
    }

    @Test("secondary text in increased contrast is the standard grey taken to 7:1 with the hue kept")
    func secondaryText() {
        for appearance in Appearance.allCases {
            let standard = appearance.secondaryText
            let expected = HueKeptAdjustment.adjust(standard, appearance.awayFromBackground, toReach: 7, against: appearance.background)
            #expect(appearance.secondaryText(.increased) == expected)
            #expect(appearance.secondaryText(.standard) == standard)
        }
    }

    @Test("the resolved look carries palette.increasedContrast and reports its changes by appearance")
    func wireFormat() throws {
        let look = Resolver().resolve(LookLayers(code: .object(["accent": .string("#007AFF")])))
        let object = try #require(try JSONSerialization.jsonObject(with: look.jsonData()) as? [String: Any])
        let palette = try #require(object["palette"] as? [String: Any])
        let increased = try #require(palette["increasedContrast"] as? [String: [String: String]])
        #expect(increased["light"]?["bubbleFill"] == look.palette.increasedContrast.light.bubbleFill.hex)
        #expect(increased["dark"]?["tint"] == look.palette.increasedContrast.dark.tint.hex)
        let adjustments = try #require(object["adjustments"] as? [[String: Any]])
        let appearances = adjustments.compactMap { $0["appearance"] as? String }
        #expect(appearances.contains("increasedContrast.light"))
        #expect(appearances.contains("increasedContrast.dark"))
        let minimums = adjustments.filter { ($0["appearance"] as? String)?.hasPrefix("increasedContrast.") == true }.compactMap { $0["minimumRatio"] as? Double }
        #expect(!minimums.isEmpty && minimums.allSatisfy { $0 == 7 })
    }
}
