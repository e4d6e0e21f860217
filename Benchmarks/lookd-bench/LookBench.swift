import Foundation
import LookResolver

/// Full resolves per second: four layers (dashboard, code, inferred, defaults), both appearances, with
/// contrast adjustments, on one thread. The anchor is the cheapest honest reference for the same input in the
/// same run: computing just the eight WCAG ratios the palette's checks need.
let lookSuite = BenchmarkSuite(name: "look") {
    let layers = LookLayers(
        dashboard: .object([
            "accent": .object(["light": .string("#FFD60A"), "dark": .string("#5E5CE6")]),
            "topics": .array([.string("billing"), .string("bug"), .object(["id": .string("plans"), "label": .object(["en": .string("Plans"), "de": .string("Tarife")])])]),
            "replyExpectation": .string("Usually replies within a few hours"),
        ]),
        code: .object(["corners": .string("soft"), "font": .string("rounded"), "headerStyle": .string("app"), "accent": .string("#34C759")]),
        inferred: .object(["accent": .string("#007AFF"), "appName": .string("Ledgerly"), "hasBundleIcon": .bool(false)])
    )
    let resolver = Resolver()
    let cachedResolver = Resolver(paletteCache: PaletteCache())
    let sample = resolver.resolve(layers)
    print("input: 3 layers + defaults; adjustments per resolve: \(sample.palette.adjustments.count); diagnostics: \(sample.diagnostics.count)")

    var sink = 0
    let resolveRate = measureRate(seconds: 2) {
        sink &+= resolver.resolve(layers).palette.adjustments.count
    }
    let cachedRate = measureRate(seconds: 2) {
        sink &+= cachedResolver.resolve(layers).palette.adjustments.count
    }
    let colors = [sample.palette.light, sample.palette.dark]
    let ratioRate = measureRate(seconds: 1) {
        var total = 0.0
        for palette in colors {
            total += Contrast.ratio(.white, palette.bubbleFill) + Contrast.ratio(palette.bubbleText, palette.bubbleFill)
            total += Contrast.ratio(palette.tint, palette.background) + Contrast.ratio(palette.text, palette.background)
        }
        sink &+= Int(total)
    }
    let encodeRate = measureRate(seconds: 1, batch: 100) {
        sink &+= sample.jsonData().count
    }
    print("resolve, palette memo (PaletteCache):   \(formatRate(cachedRate))   target ≥ 500,000/s")
    print("resolve, palette computed every time:   \(formatRate(resolveRate))")
    print("anchor: the 8 WCAG ratios alone:        \(formatRate(ratioRate))   resolve costs \(String(format: "%.1f", ratioRate / resolveRate))× the ratios")
    print("encode resolved look to stable JSON:    \(formatRate(encodeRate))   (\(sample.jsonData().count) bytes)")
    if sink == 42 { print("") }
}
