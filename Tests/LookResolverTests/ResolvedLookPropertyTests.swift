import Foundation
import Testing
@testable import LookResolver

/// SplitMix64: a small seeded generator, so every run checks the same accents.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Palette properties over 20,000 seeded accents", .timeLimit(.minutes(10)))
struct PalettePropertyTests {
    static let accentCount = 20_000

    static func accents() -> [RGBColor] {
        var generator = SeededGenerator(state: 0x100C_D00D)
        return (0..<accentCount).map { _ in
            RGBColor(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator), blue: .random(in: 0...255, using: &generator))
        }
    }

    /// How far `changed` moved from `accent`'s OKLCH hue, in degrees; nil for accents with too little chroma
    /// (under 0.03) for 8-bit colour to hold a hue.
    static func hueDrift(from accent: RGBColor, to changed: RGBColor) -> Double? {
        let start = OKLCH(accent)
        return start.chroma >= 0.03 ? OKLCH.hueDifference(OKLCH(changed).hue, start.hue) : nil
    }

    @Test("every bubble and tint meets its threshold, hue kept, passing accents untouched")
    func thresholdsAndHue() {
        var adjusted = 0
        for accent in Self.accents() {
            let palette = Palette(accent: AccentColor(accent))
            for appearance in Appearance.allCases {
                let colors = palette[appearance]
                let whiteOnAccent = Contrast.ratio(.white, accent)
                // Bubble: white text when white reaches 3:1 on the accent, then the fill reaches 4.5:1 with it.
                if whiteOnAccent >= 3 {
                    #expect(colors.bubbleText == .white)
                    #expect(Contrast.ratio(colors.bubbleText, colors.bubbleFill) >= 4.5, "\(accent) \(appearance)")
                    if whiteOnAccent >= 4.5 { #expect(colors.bubbleFill == accent) }
                } else {
                    #expect(colors.bubbleText != .white)
                    #expect(colors.bubbleFill == accent, "dark text sits on the unchanged accent")
                    #expect(Contrast.ratio(colors.bubbleText, colors.bubbleFill) >= 4.5, "\(accent) \(appearance)")
                }
                // Tint: at least 4.5:1 on the background; untouched when the accent already passes.
                #expect(Contrast.ratio(colors.tint, colors.background) >= 4.5, "\(accent) \(appearance)")
                if Contrast.ratio(accent, colors.background) >= 4.5 { #expect(colors.tint == accent) }
                // Every changed colour is strictly above the line after quantisation, and keeps its hue.
                for changed in [colors.bubbleFill, colors.tint] where changed != accent {
                    adjusted += 1
                    #expect(Contrast.ratio(changed, changed == colors.tint ? colors.background : .white) > 4.5)
                    if let shift = Self.hueDrift(from: accent, to: changed) { #expect(shift <= 1, "\(accent) → \(changed) moved hue \(shift)°") }
                }
            }
            // Every adjustment is reported with its exact ratios.
            for adjustment in palette.adjustments {
                #expect(adjustment.ratioBefore < adjustment.minimumRatio && adjustment.ratioAfter > adjustment.minimumRatio)
                #expect(adjustment.ratioAfter == Contrast.ratio(adjustment.adjusted, adjustment.against))
            }
        }
        #expect(adjusted > Self.accentCount / 2, "the sample must exercise adjustments")
    }

    @Test("resolving twice gives identical bytes; different input gives different bytes")
    func stableBytes() throws {
        var generator = SeededGenerator(state: 42)
        for _ in 0..<200 {
            let accent = RGBColor(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator), blue: .random(in: 0...255, using: &generator))
            let layers = LookLayers(
                dashboard: .object(["accent": .string(accent.hex), "topics": .array([.string("bug"), .string("billing")]), "replyExpectation": .object(["en": .string("Soon"), "de": .string("Bald"), "fr": .string("Bientôt")])]),
                code: .object(["corners": .string("soft"), "mystery": .number(1)]),
                inferred: .object(["appName": .string("Ledgerly"), "hasBundleIcon": .bool(true)])
            )
            let first = Resolver().resolve(layers).jsonData()
            let second = Resolver().resolve(layers).jsonData()
            #expect(first == second)
            let object = try #require(try JSONSerialization.jsonObject(with: first) as? [String: Any])
            let palette = try #require(object["palette"] as? [String: Any])
            let increased = try #require(palette["increasedContrast"] as? [String: Any])
            for (name, palettes) in [("palette", palette), ("palette.increasedContrast", increased)] {
                for appearance in ["light", "dark"] {
                    let colors = try #require(palettes[appearance] as? [String: String])
                    #expect(colors.count == 8)
                    for role in ["background", "bubbleFill", "bubbleText", "tint", "text", "secondaryText", "teamBubbleFill", "teamBubbleText"] {
                        let hex = try #require(colors[role])
                        #expect(RGBColor(hex: hex)?.hex == hex, "\(name).\(appearance).\(role) is #RRGGBB")
                    }
                }
            }
        }
        let a = Resolver().resolve(LookLayers(code: .object(["accent": .string("#3550E6")]))).jsonData()
        let b = Resolver().resolve(LookLayers(code: .object(["accent": .string("#3550E7")]))).jsonData()
        #expect(a != b)
    }

    @Test("fixed palette colours pass AA in both appearances")
    func fixedColors() {
        for appearance in Appearance.allCases {
            #expect(Contrast.ratio(appearance.secondaryText, appearance.background) >= 4.5)
            #expect(Contrast.ratio(appearance.text, appearance.teamBubbleFill) >= 4.5)
            #expect(Contrast.ratio(appearance.secondaryText, appearance.teamBubbleFill) >= 3)
        }
    }
}
