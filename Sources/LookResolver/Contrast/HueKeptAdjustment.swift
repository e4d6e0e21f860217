import Foundation

/// The minimal change to a colour, with its hue kept, that makes it reach a contrast ratio against another colour
/// (docs/design.md#keeping-the-brands-hue).
///
/// Method: bisect OKLCH lightness at the colour's own hue and chroma, reducing only chroma where a lightness
/// cannot hold it inside sRGB; quantise to 8 bits and re-check with the exact WCAG formula, stepping further
/// while it fails; then, where quantising moved the hue by more than ``hueTolerance``, search the 8-bit
/// neighbourhood (±3 per channel) for the passing colour with the least hue drift, then the least ΔE-OK.
public enum HueKeptAdjustment {
    public enum Direction: String, Sendable, Codable {
        case darker
        case lighter
    }

    /// Quantisation may move a hue by up to this many degrees before the neighbourhood search runs.
    public static let hueTolerance = 0.25

    /// Returns `color` itself when it already reaches `minimum` (≥, unrounded) against `other`; otherwise the
    /// closest colour of the same hue in `direction` whose ratio against `other` is strictly above `minimum`
    /// after 8-bit quantisation. Returns nil when no colour can get there (even black, for `.darker`, or white,
    /// for `.lighter`, stays at or below `minimum` against `other`).
    ///
    /// - Parameters:
    ///   - minimum: a WCAG contrast ratio, 1...21.
    public static func adjust(
        _ color: RGBColor,
        _ direction: Direction,
        toReach minimum: Double,
        against other: RGBColor
    ) -> RGBColor? {
        let otherLuminance = Contrast.luminance(other)
        if Contrast.ratio(luminance: Contrast.luminance(color), otherLuminance) >= minimum { return color }
        let endpoint: RGBColor = direction == .darker ? .black : .white
        guard Contrast.ratio(endpoint, other) > minimum else { return nil }

        let start = OKLCH(color)
        let line = HueLine(start)
        let passes = { (rgb: LinearRGB) in
            Contrast.ratio(luminance: rgb.relativeLuminance, otherLuminance) >= minimum
        }
        // 30 halvings pin lightness to 1e-9, so quantising lands on the minimal 8-bit colour, not one step past it.
        var passing = direction == .darker ? 0.0 : 1.0
        var failing = start.lightness
        for _ in 0..<30 {
            let middle = (passing + failing) / 2
            if passes(line.inGamut(lightness: middle)) { passing = middle } else { failing = middle }
        }

        let step = direction == .darker ? -0.001 : 0.001
        var lightness = passing
        var result = line.inGamut(lightness: lightness).quantized
        while !(Contrast.ratio(result, other) > minimum) {
            lightness += step
            guard lightness > 0, lightness < 1 else { return endpoint }
            result = line.inGamut(lightness: lightness).quantized
        }

        if start.chroma > 0.0001, OKLCH.hueDifference(OKLCH(result).hue, start.hue) > hueTolerance {
            result = leastHueDrift(around: result, from: start, passing: minimum, against: other)
        }
        return result
    }

    /// The colours of one hue and at most one chroma, with the hue's direction computed once.
    struct HueLine {
        let chroma: Double
        let cosine: Double
        let sine: Double

        init(_ reference: OKLCH) {
            chroma = reference.chroma
            cosine = cos(reference.hue * Double.pi / 180)
            sine = sin(reference.hue * Double.pi / 180)
        }

        func color(lightness: Double, chroma: Double) -> LinearRGB {
            OKLab(lightness: lightness, a: chroma * cosine, b: chroma * sine).linearRGB
        }

        /// The colour at `lightness` on this hue with the most chroma, up to ``chroma``, that sRGB holds.
        /// 20 halvings pin chroma to 3e-7: colours on the gamut edge then quantise to the minimal change.
        func inGamut(lightness: Double) -> LinearRGB {
            let full = color(lightness: lightness, chroma: chroma)
            if full.isInGamut { return full }
            var inside = 0.0
            var insideColor = color(lightness: lightness, chroma: 0)
            var outside = chroma
            for _ in 0..<20 {
                let middle = (inside + outside) / 2
                let candidate = color(lightness: lightness, chroma: middle)
                if candidate.isInGamut {
                    inside = middle
                    insideColor = candidate
                } else {
                    outside = middle
                }
            }
            return insideColor
        }
    }

    /// Among the 8-bit colours within ±3 per channel of `candidate` whose ratio against `other` is strictly above
    /// `minimum`: the one closest to `start` (least ΔE-OK) whose hue drift is within ``hueTolerance``; when none
    /// is, the one with the least hue drift, then the least ΔE-OK. `candidate` itself passes, so there is always
    /// an answer.
    static func leastHueDrift(around candidate: RGBColor, from start: OKLCH, passing minimum: Double, against other: RGBColor) -> RGBColor {
        let origin = start.lab
        let otherLuminance = Contrast.luminance(other)
        var best = candidate
        var bestDrift = OKLCH.hueDifference(OKLCH(candidate).hue, start.hue)
        var bestDistance = OKLab(candidate).distance(to: origin)
        func channel(_ value: UInt8, _ offset: Int) -> UInt8? {
            let shifted = Int(value) + offset
            return (0...255).contains(shifted) ? UInt8(shifted) : nil
        }
        for dr in -3...3 {
            guard let red = channel(candidate.red, dr) else { continue }
            for dg in -3...3 {
                guard let green = channel(candidate.green, dg) else { continue }
                for db in -3...3 {
                    guard let blue = channel(candidate.blue, db) else { continue }
                    let color = RGBColor(red: red, green: green, blue: blue)
                    guard Contrast.ratio(luminance: Contrast.luminance(color), otherLuminance) > minimum else { continue }
                    let lab = OKLab(color)
                    let drift = OKLCH.hueDifference(OKLCH(lab).hue, start.hue)
                    let distance = lab.distance(to: origin)
                    let bestWithin = bestDrift <= hueTolerance, within = drift <= hueTolerance
                    let better = within && bestWithin
                        ? distance < bestDistance
                        : within || (!bestWithin && (drift < bestDrift - 1e-9 || (abs(drift - bestDrift) <= 1e-9 && distance < bestDistance)))
                    if better {
                        best = color
                        bestDrift = drift
                        bestDistance = distance
                    }
                }
            }
        }
        return best
    }
}
