import Foundation
import LookResolver

/// The look path on one thread, each rate printed with its input and beside an anchor measured in the same run:
/// - resolve: three layers over the defaults, both appearances at both contrast levels, with a warm palette memo
///   (the service's case: its accents are stored after the first resolve) and with no memo (every palette
///   computed: the hue-kept searches). Anchor: the 16 WCAG ratios the palettes' checks need, alone.
/// - encode: the resolved look to its stable JSON bytes. Anchor: Foundation's `JSONEncoder` (sorted keys) on the
///   same look as a `JSONValue` tree, which is how the look was encoded before StableJSON.
/// - read: the layers' JSON bytes by the strict reader. Anchor: Foundation's `JSONSerialization` on the same bytes.
///
/// Absolute rates depend on how much of a core the process gets (this machine's two cores are shared), so the
/// suite prints the load average beside them; the ratios to the anchors are what compares between runs.
/// `LOOK_PROFILE=resolve|encode|read lookd-bench look` instead runs 200,000 operations of one kind, untimed,
/// for `perf record`.
let lookSuite = BenchmarkSuite(name: "look") {
    let input = ##"{"code":{"accent":"#34C759","corners":"soft","font":"rounded","headerStyle":"app"},"dashboard":{"accent":{"dark":"#5E5CE6","light":"#FFD60A"},"replyExpectation":"Usually replies within a few hours","topics":["billing","bug",{"id":"plans","label":{"de":"Tarife","en":"Plans"}}]},"inferred":{"accent":"#007AFF","appName":"Ledgerly","hasBundleIcon":false}}"##
    let inputBytes = Array(input.utf8)
    guard let layers = try? LookLayers(json: inputBytes) else { fatalError("the bench's own input must read") }
    let resolver = Resolver()
    let memo = PaletteCache()
    let cachedResolver = Resolver(paletteCache: memo)
    let sample = cachedResolver.resolve(layers)
    let bytes = sample.jsonBytes()
    print("input (\(inputBytes.count) bytes): \(input)")
    print("resolved: accent from \(sample.accent.source.rawValue); \(sample.palette.adjustments.count) contrast adjustments; \(sample.diagnostics.count) diagnostics; \(bytes.count) bytes of JSON")
    print("memo: \(memo.count) accent stored before timing (warm: every timed resolve is a hit)")
    let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "unknown"
    print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average (1 min) \(load) at the start")

    var sink = 0
    if let only = ProcessInfo.processInfo.environment["LOOK_PROFILE"] {
        for _ in 0..<200_000 {
            switch only {
            case "resolve": sink &+= cachedResolver.resolve(layers).diagnostics.count
            case "encode": sink &+= sample.jsonBytes().count
            case "none": sink &+= 1
            default: sink &+= (try? JSONReader.read(inputBytes))?.objectValue?.count ?? 0
            }
        }
        print(only, sink)
        return
    }
    let cachedRate = measureRate(seconds: 2) {
        sink &+= cachedResolver.resolve(layers).diagnostics.count
    }
    let resolveRate = measureRate(seconds: 1, batch: 100) {
        sink &+= resolver.resolve(layers).palette.adjustments.count
    }
    let palettes = [sample.palette.light, sample.palette.dark, sample.palette.increasedContrast.light, sample.palette.increasedContrast.dark]
    let ratioRate = measureRate(seconds: 1) {
        var total = 0.0
        for palette in palettes {
            total += Contrast.ratio(.white, palette.bubbleFill) + Contrast.ratio(palette.bubbleText, palette.bubbleFill)
            total += Contrast.ratio(palette.tint, palette.background) + Contrast.ratio(palette.text, palette.background)
        }
        sink &+= Int(total)
    }
    let encodeRate = measureRate(seconds: 1) {
        sink &+= sample.jsonBytes().count
    }
    let tree = sample.jsonValue
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let foundationEncodeRate = measureRate(seconds: 1, batch: 20) {
        sink &+= (try? encoder.encode(tree))?.count ?? 0
    }
    let readRate = measureRate(seconds: 1) {
        sink &+= (try? JSONReader.read(inputBytes))?.objectValue?.count ?? 0
    }
    let inputData = Data(inputBytes)
    let foundationReadRate = measureRate(seconds: 1) {
        sink &+= ((try? JSONSerialization.jsonObject(with: inputData)) as? [String: Any])?.count ?? 0
    }
    func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
    print("resolve, warm palette memo:            \(formatRate(cachedRate))   target ≥ 500,000/s")
    print("resolve, no memo (palettes computed):  \(formatRate(resolveRate))")
    print("anchor: the 16 WCAG ratios alone:      \(formatRate(ratioRate))   warm resolve = \(ratio(cachedRate / ratioRate)) of it")
    print("encode to stable JSON (\(bytes.count) bytes):  \(formatRate(encodeRate))   target ≥ 200,000/s")
    print("anchor: JSONEncoder, sorted keys:      \(formatRate(foundationEncodeRate))   StableJSON = \(ratio(encodeRate / foundationEncodeRate)) of it")
    print("read the input, strict RFC 8259:       \(formatRate(readRate))")
    print("anchor: JSONSerialization:             \(formatRate(foundationReadRate))   StableJSON = \(ratio(readRate / foundationReadRate)) of it")
    if sink == 42 { print("") }
}
