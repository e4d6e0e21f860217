import Testing
@testable import LookResolver

@Suite("WCAG contrast and hue-kept adjustment", .timeLimit(.minutes(10)))
struct ContrastTests {
    func color(_ hex: String) -> RGBColor { RGBColor(hex: hex)! }

    @Test("docs/design.md reference ratios, unrounded")
    func referenceRatios() {
        let grey777 = Contrast.ratio(color("#777777"), .white)
        #expect(grey777 > 4.478 && grey777 < 4.479)
        #expect(grey777 < Contrast.textMinimum, "#777777 on white fails AA")
        let grey767 = Contrast.ratio(color("#767676"), .white)
        #expect(grey767 > 4.542 && grey767 < 4.543)
        let blue = Contrast.ratio(color("#0000EE"), .white)
        // docs/design.md#contrast-the-wcag-formula-and-its-thresholds gives the exact 9.3976; shown, it is cut to 9.397.
        #expect(blue > 9.3976 && blue < 9.3977)
        #expect(ColorAdjustment.cut(blue, places: 3) == 9.397)
        #expect(Contrast.ratio(.black, .white) == 21)
        #expect(Contrast.ratio(color("#3550E6"), .white) == Contrast.ratio(.white, color("#3550E6")))
    }

    @Test("#007AFF is deepened to the minimal hue-kept blue, #0072F0")
    func systemBlueDeepened() throws {
        let accent = color("#007AFF")
        #expect(Contrast.ratio(.white, accent) < 4.5 && Contrast.ratio(.white, accent) >= 3)
        let deepened = try #require(HueKeptAdjustment.adjust(accent, .darker, toReach: 4.5, against: .white))
        #expect(deepened == color("#0072F0"))
        #expect(Contrast.ratio(.white, deepened) > 4.5)
        #expect(OKLCH.hueDifference(OKLCH(deepened).hue, OKLCH(accent).hue) <= 1)
    }

    @Test("#777777 moves one step, to #767676")
    func greyOneStep() {
        #expect(HueKeptAdjustment.adjust(color("#777777"), .darker, toReach: 4.5, against: .white) == color("#767676"))
    }

    @Test("a colour that already passes is returned unchanged")
    func passingUntouched() {
        #expect(HueKeptAdjustment.adjust(color("#767676"), .darker, toReach: 4.5, against: .white) == color("#767676"))
        #expect(HueKeptAdjustment.adjust(color("#0A84FF"), .lighter, toReach: 4.5, against: .black) == color("#0A84FF"))
    }

    @Test("an unreachable target answers nil rather than a failing colour")
    func unreachable() {
        // Against mid grey, even black stays under 7:1.
        #expect(HueKeptAdjustment.adjust(color("#3550E6"), .darker, toReach: 7, against: color("#777777")) == nil)
    }

    @Test("colour strings: #RRGGBB, #RGB, opaque #RRGGBBAA; nothing else")
    func parsing() {
        #expect(RGBColor(hex: "#3550e6") == RGBColor(red: 0x35, green: 0x50, blue: 0xE6))
        #expect(RGBColor(hex: "#fA0") == RGBColor(red: 0xFF, green: 0xAA, blue: 0x00))
        #expect(RGBColor(hex: "#3550E6FF") == RGBColor(red: 0x35, green: 0x50, blue: 0xE6))
        for bad in ["3550E6", "#3550E680", "#3550E", "#GGGGGG", " #3550E6", "#3550E6 ", "", "#", "#12345", "red", "#ＦＦＦ"] {
            #expect(RGBColor(hex: bad) == nil, "\(bad) must be rejected")
        }
        #expect(RGBColor(red: 0x0A, green: 0x84, blue: 0xFF).hex == "#0A84FF")
    }

    @Test("#RRGGBB agrees with reading each digit with Int(_:radix:), for every byte in every position")
    func sixDigitsEveryByte() {
        func expected(_ text: [UInt8]) -> RGBColor? {
            var value: UInt32 = 0
            for byte in text {
                guard let digit = Int(String(UnicodeScalar(byte)), radix: 16), byte < 0x80 else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return RGBColor(red: UInt8(value >> 16), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        }
        let base = Array("A1b2C3".utf8)
        var mismatches: [String] = []
        for position in 0..<6 {
            for byte in UInt8.min...UInt8.max {
                var digits = base
                digits[position] = byte
                let bytes = [UInt8(ascii: "#")] + digits
                // Valid UTF-8 or not, the parser sees the same bytes.
                let text = String(unsafeUninitializedCapacity: 7) { buffer in
                    _ = buffer.initialize(from: bytes)
                    return 7
                }
                let parsed = text.utf8.elementsEqual(bytes) ? RGBColor(hex: text) : nil
                let want = text.utf8.elementsEqual(bytes) ? expected(digits) : nil
                if parsed != want { mismatches.append("byte \(byte) at \(position): \(String(describing: parsed))") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(RGBColor(hex: "#000000") == RGBColor(red: 0, green: 0, blue: 0))
        #expect(RGBColor(hex: "#ffFFff") == RGBColor(red: 255, green: 255, blue: 255))
    }
}
