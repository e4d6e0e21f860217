#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StableJSON

extension AccessibilityReport {
    /// The report as JSON (keys sorted when written; see docs/preview.md for every figure):
    ///
    /// - `pairs`: one object per text/background pair: `appearance` (`light`, `dark`, `increasedContrast.light`,
    ///   `increasedContrast.dark`), `role`, `foreground`, `background` (`#RRGGBB`), `wcag` (the ratio cut, never
    ///   rounded up, to 3 decimals), `level` (`AAA`, `AA`, `AA large`, `fail`), `minimumRatio` (what lookd promises:
    ///   4.5 or 7), `passes`, `apcaLc` (signed, cut toward zero to 2 decimals), `apcaUse`, and `adjustment` (the
    ///   change lookd made for the pair, or null);
    /// - `cvd`: per deficiency (`protanopia`, `deuteranopia`, `tritanopia`): `confusion` (`red-green` or
    ///   `blue-yellow`), `method`, and per palette the simulated colours and the ΔE-OK (4 decimals) of the person's
    ///   against the team's bubbles and of the tint against the background, normal and simulated, with `lost`
    ///   set where a distinction carried by hue alone disappears;
    /// - `adjustments`: as in the resolved look; `apca`, `wcag`: the constants and thresholds used;
    /// - `summary`: counts, and `warnings` (`pair_below_minimum`, `red_green_only`, `blue_yellow_only`).
    public var jsonValue: JSONValue {
        var deficiencies: [String: JSONValue] = [:]
        for deficiency in ColorVisionDeficiency.allCases {
            let comparisons = cvd.filter { $0.deficiency == deficiency }
            deficiencies[deficiency.rawValue] = .object([
                "confusion": .string(deficiency.isRedGreen ? "red-green" : "blue-yellow"),
                "method": .string("Machado, Oliveira & Fernandes 2009, severity 1.0, on linear sRGB"),
                "appearances": .array(comparisons.map(\.jsonValue)),
            ])
        }
        var warnings: [JSONValue] = failingPairs.map { pair in
            Self.warning("pair_below_minimum", "\(pair.role.rawValue) in \(pair.appearanceName): \(pair.foreground.hex) on \(pair.background.hex) is \(JSONWriter.string(Self.cut(pair.wcag, 3))):1, under \(JSONWriter.string(Self.number(pair.minimumRatio))):1")
        }
        for (comparison, what) in lostDistinctions {
            let distinction = what == "bubbles" ? comparison.bubbles : comparison.tintOnBackground
            let subject = what == "bubbles" ? "the person's and the team's bubbles" : "the tint and the background"
            warnings.append(Self.warning(
                comparison.deficiency.isRedGreen ? "red_green_only" : "blue_yellow_only",
                "\(comparison.deficiency.rawValue), \(comparison.appearanceName): \(subject) (\(distinction.first.hex), \(distinction.second.hex)) differ by ΔE-OK \(JSONWriter.string(Self.rounded(distinction.normalDistance, 4))) but only \(JSONWriter.string(Self.rounded(distinction.simulatedDistance, 4))) when simulated"))
        }
        var apca: [String: JSONValue] = [:]
        apca["version"] = .string(APCA.version)
        apca["advisory"] = .bool(true)
        apca["bodyTextMinimum"] = Self.number(APCA.bodyTextMinimum)
        apca["bodyTextPreferred"] = Self.number(APCA.bodyTextPreferred)
        var uses: [String: JSONValue] = [:]
        for use in APCA.Use.allCases { uses[use.rawValue] = Self.number(use.minimum) }
        apca["uses"] = .object(uses)
        var wcag: [String: JSONValue] = [:]
        wcag["version"] = .string("2.2")
        wcag["levels"] = .object(["AAA": Self.number(7), "AA": Self.number(4.5), "AA large": Self.number(3)])
        wcag["distinctMinimumDeltaEOK"] = Self.number(CVDComparison.distinctMinimum)
        var summary: [String: JSONValue] = [:]
        summary["pairs"] = .number(JSONNumber(pairs.count))
        summary["passing"] = .number(JSONNumber(pairs.count - failingPairs.count))
        summary["adjusted"] = .number(JSONNumber(adjustments.count))
        summary["warnings"] = .array(warnings)
        var report: [String: JSONValue] = [:]
        report["schema"] = .number(JSONNumber(1))
        report["pairs"] = .array(pairs.map(\.jsonValue))
        report["cvd"] = .object(deficiencies)
        report["adjustments"] = .array(adjustments.map(\.reportValue))
        report["apca"] = .object(apca)
        report["wcag"] = .object(wcag)
        report["summary"] = .object(summary)
        return .object(report)
    }

    static func warning(_ code: String, _ message: String) -> JSONValue {
        .object(["code": .string(code), "message": .string(message)])
    }

    /// `value` truncated toward zero to `places` decimals: a figure shown is never stronger than the real one.
    static func cut(_ value: Double, _ places: Int) -> JSONValue {
        let scale = pow(10, Double(places))
        return number((value * scale).rounded(.towardZero) / scale)
    }

    static func rounded(_ value: Double, _ places: Int) -> JSONValue {
        let scale = pow(10, Double(places))
        return number((value * scale).rounded() / scale)
    }

    static func number(_ value: Double) -> JSONValue {
        JSONNumber(value).map(JSONValue.number) ?? .null
    }
}

extension ContrastPair {
    var jsonValue: JSONValue {
        .object([
            "appearance": .string(appearanceName),
            "role": .string(role.rawValue),
            "foreground": .string(foreground.hex),
            "background": .string(background.hex),
            "wcag": AccessibilityReport.cut(wcag, 3),
            "level": .string(level.rawValue),
            "minimumRatio": AccessibilityReport.number(minimumRatio),
            "passes": .bool(passes),
            "apcaLc": AccessibilityReport.cut(apcaLc, 2),
            "apcaUse": .string(apcaUse.rawValue),
            "adjustment": adjustment?.reportValue ?? .null,
        ])
    }
}

extension CVDComparison {
    var jsonValue: JSONValue {
        .object([
            "appearance": .string(appearanceName),
            "bubbles": bubbles.jsonValue,
            "tintOnBackground": tintOnBackground.jsonValue.merging(["simulatedWcag": AccessibilityReport.cut(simulatedTintRatio, 3)]),
            "simulatedBubbleText": .string(simulatedBubbleText.hex),
        ])
    }
}

extension CVDComparison.Distinction {
    var jsonValue: JSONValue {
        .object([
            "colors": .array([.string(first.hex), .string(second.hex)]),
            "simulated": .array([.string(simulatedFirst.hex), .string(simulatedSecond.hex)]),
            "deltaEOK": AccessibilityReport.rounded(normalDistance, 4),
            "simulatedDeltaEOK": AccessibilityReport.rounded(simulatedDistance, 4),
            "lost": .bool(isLost),
        ])
    }
}

extension ColorAdjustment {
    /// The adjustment as the resolved look writes it.
    var reportValue: JSONValue {
        var writer = JSONWriter(capacity: 320)
        write(to: &writer)
        // The writer's own bytes are valid JSON by construction.
        return (try? JSONValue(parsing: String(decoding: writer.bytes, as: UTF8.self))) ?? .null
    }
}

extension JSONValue {
    /// An object with `members` added (an existing key replaced); any other value is returned as it is.
    func merging(_ members: [String: JSONValue]) -> JSONValue {
        guard case .object(let object) = self else { return self }
        return .object(object.dictionary.merging(members) { _, new in new })
    }
}
