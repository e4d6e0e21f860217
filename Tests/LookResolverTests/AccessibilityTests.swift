import StableJSON
import Testing
@testable import LookResolver

@Suite("Accessibility figures: APCA, colour-vision deficiency, the report", .timeLimit(.minutes(10)))
struct AccessibilityTests {
    func color(_ hex: String) -> RGBColor { RGBColor(hex: hex)! }

    /// APCA's published test values for the W3 G-series constants (Myndex/SAPC-APCA, README.md, "Test Values for
    /// APCA W3"): text first, background second.
    static let apcaReference: [(text: String, background: String, lc: Double)] = [
        ("#888888", "#FFFFFF", 63.056469930209424),
        ("#FFFFFF", "#888888", -68.54146436644962),
        ("#000000", "#AAAAAA", 58.146262578561334),
        ("#AAAAAA", "#000000", -56.24113336839742),
        ("#112233", "#DDEEFF", 91.66830811481631),
        ("#DDEEFF", "#112233", -93.06770049484275),
        ("#112233", "#444444", 8.32326136957393),
        ("#444444", "#112233", -7.526878460278154),
    ]

    @Test("APCA Lc matches the reference values of APCA-W3 0.0.98G")
    func apcaReferenceValues() {
        for row in Self.apcaReference {
            let lc = APCA.lightnessContrast(text: color(row.text), background: color(row.background))
            #expect(abs(lc - row.lc) < 1e-9, "\(row.text) on \(row.background): \(lc), expected \(row.lc)")
        }
    }

    @Test("APCA: identical colours give 0, |Lc| under 10 is clipped, the uses follow the bronze thresholds")
    func apcaEdges() {
        #expect(APCA.lightnessContrast(text: color("#777777"), background: color("#777777")) == 0)
        // #123 on #234 is 1.75 in APCA's low-scale research versions: under the 0.1 clip, so 0 in APCA-W3.
        #expect(APCA.lightnessContrast(text: color("#112233"), background: color("#223344")) == 0)
        #expect(APCA.Use(lc: 63.05) == .contentText)
        #expect(APCA.Use(lc: -68.5) == .contentText)
        #expect(APCA.Use(lc: 75) == .bodyText)
        #expect(APCA.Use(lc: -90.0) == .preferredBodyText)
        #expect(APCA.Use(lc: 29.99) == .insufficient)
        // The published weights sum to 1.0000001.
        #expect(abs(APCA.screenLuminance(.white) - 1) < 1e-6 && APCA.screenLuminance(.black) == 0)
    }

    @Test("CVD simulation agrees with colorspacious and daltonlens (Machado 2009, severity 1.0) within one 8-bit step")
    func cvdAgainstOracles() throws {
        #expect(cvdOracleValues.count == 171)
        var exact = 0
        for row in cvdOracleValues {
            let deficiency = try #require(ColorVisionDeficiency(rawValue: row.deficiency))
            let simulated = deficiency.simulate(color(row.input))
            for oracle in [color(row.colorspacious), color(row.daltonlens)] {
                let steps = [Int(simulated.red) - Int(oracle.red), Int(simulated.green) - Int(oracle.green), Int(simulated.blue) - Int(oracle.blue)]
                #expect(steps.allSatisfy { abs($0) <= 1 }, "\(row.deficiency) \(row.input): \(simulated.hex), oracle \(oracle.hex)")
            }
            if simulated == color(row.colorspacious) { exact += 1 }
        }
        // Both are float64 with the same rounding: all but a handful of half-way cases agree exactly.
        #expect(exact >= cvdOracleValues.count - 3)
    }

    @Test("distances between simulated colours agree with the oracle's ΔE-OK")
    func cvdDistances() throws {
        for row in cvdOracleDistances {
            let distance: Double
            if row.deficiency == "none" {
                distance = OKLab(color(row.first)).distance(to: OKLab(color(row.second)))
            } else {
                let deficiency = try #require(ColorVisionDeficiency(rawValue: row.deficiency))
                distance = CVDComparison.Distinction(color(row.first), color(row.second), deficiency).simulatedDistance
            }
            // The oracle does not quantise the simulated colours to 8 bits; half a step moves ΔE-OK by under 0.003.
            #expect(abs(distance - row.deltaEOK) < 0.003, "\(row.first)/\(row.second) \(row.deficiency): \(distance), expected \(row.deltaEOK)")
        }
    }

    @Test("a red/green-only distinction is flagged for protanopia or deuteranopia")
    func redGreenOnly() throws {
        // iOS systemRed and systemGreen: 0.375 ΔE-OK apart, 0.068 for deuteranopia (oracle above).
        var palette = Palette(accent: AccentColor(light: color("#FF3B30"), dark: color("#FF3B30"))).light
        palette.bubbleFill = color("#FF3B30")
        palette.teamBubbleFill = color("#34C759")
        let deuteranopia = CVDComparison(.deuteranopia, palette: palette, appearance: .light, contrast: .standard)
        #expect(deuteranopia.bubbles.isLost)
        let tritanopia = CVDComparison(.tritanopia, palette: palette, appearance: .light, contrast: .standard)
        #expect(!tritanopia.bubbles.isLost)
    }

    @Test("the default look's report: 20 pairs, all passing, the adjusted pairs carry their adjustment")
    func defaultReport() throws {
        let report = AccessibilityReport(palette: Palette(accent: .systemBlue))
        #expect(report.pairs.count == 20)
        #expect(report.failingPairs.isEmpty)
        let text = try #require(report.pairs.first { $0.role == .text && $0.appearance == .light && $0.contrast == .standard })
        #expect(text.wcag == 21 && text.level == .aaa)
        // Black on white by hand: Y(black) soft-clamped to 0.022^1.414 = 0.00453; (1 - 0.00453^0.57) * 1.14 - 0.027 = 1.0604.
        #expect(text.apcaLc > 106 && text.apcaLc < 106.1)
        let bubble = try #require(report.pairs.first { $0.role == .bubbleText && $0.appearance == .light && $0.contrast == .standard })
        // docs/look.md: #007AFF becomes #0072F0 with white text at 4.501:1.
        #expect(bubble.background == color("#0072F0") && bubble.foreground == .white)
        #expect(bubble.adjustment?.original == color("#007AFF"))
        #expect(bubble.wcag > 4.5 && bubble.level == .aa)
        let secondary = try #require(report.pairs.first { $0.role == .secondaryText && $0.appearance == .dark && $0.contrast == .increased })
        #expect(secondary.foreground == color("#95959A") && secondary.minimumRatio == 7 && secondary.passes)
        #expect(report.cvd.count == 12)
        #expect(report.lostDistinctions.isEmpty)
    }

    @Test("the report's JSON has the pair and cvd fields the dashboard reads")
    func reportJSON() throws {
        let value = AccessibilityReport(palette: Palette(accent: .systemBlue)).jsonValue
        let pairs = try #require(value["pairs"]?.arrayValue)
        #expect(pairs.count == 20)
        let appearances = Set(pairs.compactMap { $0["appearance"]?.stringValue })
        #expect(appearances == ["light", "dark", "increasedContrast.light", "increasedContrast.dark"])
        for pair in pairs {
            for key in ["role", "foreground", "background", "wcag", "apcaLc", "level"] {
                #expect(pair[key] != nil, "pair without \(key)")
            }
            #expect(pair["foreground"]?.stringValue?.utf8.count == 7)
        }
        let light = try #require(pairs.first { $0["appearance"]?.stringValue == "light" && $0["role"]?.stringValue == "bubbleText" })
        // Cut, never rounded up: 4.501 (docs/look.md), and white on #0072F0 has a negative Lc.
        #expect(light["wcag"]?.numberValue?.literal == "4.501")
        #expect((light["apcaLc"]?.doubleValue ?? 0) < -60)
        let protanopia = try #require(value["cvd"]?["protanopia"]?["appearances"]?.arrayValue)
        #expect(protanopia.count == 4)
        #expect(protanopia[0]["bubbles"]?["simulated"]?.arrayValue?.count == 2)
        #expect(value["cvd"]?["tritanopia"]?["confusion"]?.stringValue == "blue-yellow")
    }
}
