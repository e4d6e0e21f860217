import Testing
@testable import LookResolver

@Suite("The palette memo", .timeLimit(.minutes(10)))
struct PaletteCacheTests {
    static func accents(_ count: Int) -> [AccentColor] {
        (0..<count).map { index in
            let value = UInt32(truncatingIfNeeded: index &* 0x9E37_79B9)
            let light = RGBColor(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
            return AccentColor(light: light, dark: index.isMultiple(of: 3) ? light : RGBColor(red: UInt8(index & 0xFF), green: 0x40, blue: 0xC0))
        }
    }

    @Test("answers the palette the accent gives, stored or not, and never holds more than its capacity")
    func boundedAndExact() {
        let memo = PaletteCache(capacity: 5)
        let accents = Self.accents(40)
        for round in 0..<3 {
            for accent in accents {
                #expect(memo.palette(for: accent) == Palette(accent: accent), "round \(round)")
                #expect(memo.count <= 5)
            }
        }
        #expect(memo.count >= 1)
    }

    @Test("accents that differ in one appearance only are different keys")
    func keyIsBothColours() {
        let memo = PaletteCache()
        let light = RGBColor(red: 0x34, green: 0xC7, blue: 0x59)
        let one = AccentColor(light: light, dark: light)
        let other = AccentColor(light: light, dark: RGBColor(red: 0x5E, green: 0x5C, blue: 0xE6))
        #expect(memo.palette(for: one) == Palette(accent: one))
        #expect(memo.palette(for: other) == Palette(accent: other))
        #expect(memo.palette(for: one) == Palette(accent: one))
        #expect(memo.count == 2)
    }

    @Test("shared between tasks, every answer is the accent's palette")
    func concurrent() async {
        let memo = PaletteCache(capacity: 8)
        let accents = Self.accents(24)
        let expected = accents.map { Palette(accent: $0) }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var wrong = 0
                    for step in 0..<300 {
                        let index = (step * 7 + task * 5) % accents.count
                        if memo.palette(for: accents[index]) != expected[index] { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(memo.count <= 8)
    }
}
