import LookResolver

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The accessibility report as a self-contained HTML page (inline CSS, no script, nothing loaded; the same
/// Content-Security-Policy as the preview): every text/background pair as a swatch with its WCAG ratio, level and
/// APCA Lc, the adjustments lookd made, and each colour-vision deficiency's simulated bubbles and tint with their
/// distances. Figures are shown as the JSON gives them (ratios cut, never rounded up).
public struct ReportPage {
    var report: LookReport

    public init(_ report: LookReport) { self.report = report }

    public func html() -> String {
        let subject = report.appKey.map { "\($0)" + (report.draft ? " — draft" : report.version.map { " — version \($0)" } ?? "") }
            ?? "Resolved layers"
        let figures = report.report
        var page = PreviewPage.documentStart(lang: "en", direction: "ltr", title: "Accessibility report: \(subject)", style: Self.stylesheet) + """
            <h1>Accessibility report</h1>
            <p class="subject" data-role="subject" data-draft="\(report.draft)">\(HTMLText(subject))</p>
            <p>\(figures.pairs.count - figures.failingPairs.count) of \(figures.pairs.count) text/background pairs reach the
            ratio lookd promises (4.5:1, or 7:1 in increased contrast). APCA Lc (\(APCA.version)) is advisory: body text wants
            |Lc| ≥ \(Int(APCA.bodyTextMinimum)) (\(Int(APCA.bodyTextPreferred)) preferred).</p>

            """
        page += warnings
        page += "<h2>Text and backgrounds</h2>\n<table data-role=\"pairs\">\n<thead><tr><th>Palette</th><th>Role</th><th>Sample</th><th>Colours</th><th>WCAG 2</th><th>Level</th><th>Promised</th><th>APCA Lc</th><th>Adjusted by lookd</th></tr></thead>\n<tbody>\n"
        for pair in figures.pairs {
            page += """
                <tr data-role="pair" data-appearance="\(pair.appearanceName)" data-pair-role="\(pair.role.rawValue)" data-wcag="\(Self.cut(pair.wcag, 3))" data-passes="\(pair.passes)">\
                <td>\(pair.appearanceName)</td><td>\(pair.role.rawValue)</td>\
                <td><span class="sample" data-role="sample" style="color:\(pair.foreground.hex);background:\(pair.background.hex)">Aa</span></td>\
                <td><code>\(pair.foreground.hex)</code> on <code>\(pair.background.hex)</code></td>\
                <td>\(Self.cut(pair.wcag, 3)):1</td><td>\(pair.level.rawValue)</td><td>\(Self.cut(pair.minimumRatio, 1)):1 \(pair.passes ? "✓" : "✗")</td>\
                <td>\(Self.cut(pair.apcaLc, 2)) <small>\(pair.apcaUse.rawValue)</small></td>\
                <td>\(pair.adjustment.map(Self.describe) ?? "—")</td></tr>

                """
        }
        page += "</tbody>\n</table>\n"
        page += cvdSection
        page += "</body>\n</html>\n"
        return page
    }

    private var warnings: String {
        let lost = report.report.lostDistinctions
        let failing = report.report.failingPairs
        guard !lost.isEmpty || !failing.isEmpty else { return "<p data-role=\"no-warnings\">No warnings.</p>\n" }
        var html = "<ul class=\"warnings\" data-role=\"warnings\">\n"
        for pair in failing {
            html += "<li data-code=\"pair_below_minimum\">\(pair.role.rawValue) in \(pair.appearanceName) is \(Self.cut(pair.wcag, 3)):1, under \(Self.cut(pair.minimumRatio, 1)):1</li>\n"
        }
        for (comparison, what) in lost {
            let code = comparison.deficiency.isRedGreen ? "red_green_only" : "blue_yellow_only"
            let subject = what == "bubbles" ? "the person's and the team's bubbles" : "the tint and the background"
            html += "<li data-code=\"\(code)\">\(comparison.deficiency.rawValue), \(comparison.appearanceName): \(subject) are told apart by hue alone</li>\n"
        }
        return html + "</ul>\n"
    }

    private var cvdSection: String {
        var html = """
            <h2>Colour-vision deficiencies</h2>
            <p>Simulated with Machado, Oliveira &amp; Fernandes (2009), severity 1.0. Distances are ΔE-OK; under \
            \(CVDComparison.distinctMinimum) two fills are hard to tell apart.</p>
            <table data-role="cvd">
            <thead><tr><th>Deficiency</th><th>Palette</th><th>Bubbles (person, team)</th><th>ΔE-OK normal → simulated</th><th>Tint on background</th><th>ΔE-OK normal → simulated</th><th>Tint WCAG simulated</th></tr></thead>
            <tbody>

            """
        for comparison in report.report.cvd {
            let bubbles = comparison.bubbles, tint = comparison.tintOnBackground
            html += """
                <tr data-role="cvd-row" data-deficiency="\(comparison.deficiency.rawValue)" data-appearance="\(comparison.appearanceName)" data-lost="\(bubbles.isLost || tint.isLost)">\
                <td>\(comparison.deficiency.rawValue)</td><td>\(comparison.appearanceName)</td>\
                <td>\(Self.swatch(bubbles.simulatedFirst)) \(Self.swatch(bubbles.simulatedSecond))</td>\
                <td>\(Self.rounded(bubbles.normalDistance, 4)) → \(Self.rounded(bubbles.simulatedDistance, 4))\(bubbles.isLost ? " ⚠" : "")</td>\
                <td><span class="sample" style="color:\(tint.simulatedFirst.hex);background:\(tint.simulatedSecond.hex)">Link</span></td>\
                <td>\(Self.rounded(tint.normalDistance, 4)) → \(Self.rounded(tint.simulatedDistance, 4))\(tint.isLost ? " ⚠" : "")</td>\
                <td>\(Self.cut(comparison.simulatedTintRatio, 3)):1</td></tr>

                """
        }
        return html + "</tbody>\n</table>\n"
    }

    private func paletteName(_ comparison: CVDComparison) -> String {
        comparison.contrast == .standard ? comparison.appearance.rawValue : "increasedContrast.\(comparison.appearance.rawValue)"
    }

    private static func describe(_ adjustment: ColorAdjustment) -> String {
        "\(adjustment.role.rawValue) <code>\(adjustment.original.hex)</code> → <code>\(adjustment.adjusted.hex)</code> "
            + "(\(adjustment.direction.rawValue); \(cut(adjustment.ratioBefore, 3)) → \(cut(adjustment.ratioAfter, 3)):1; "
            + "ΔE-OK \(rounded(adjustment.deltaEOK, 4)), hue \(rounded(adjustment.hueShift, 2))°)"
    }

    private static func swatch(_ color: RGBColor) -> String {
        "<span class=\"swatch\" style=\"background:\(color.hex)\" title=\"\(color.hex)\"></span><code>\(color.hex)</code>"
    }

    /// `value` truncated toward zero to `places` decimals, trailing zeros dropped (never stronger than the real figure).
    static func cut(_ value: Double, _ places: Int) -> String {
        let scale = pow(10, Double(places))
        return trimmed((value * scale).rounded(.towardZero) / scale, places)
    }

    static func rounded(_ value: Double, _ places: Int) -> String {
        let scale = pow(10, Double(places))
        return trimmed((value * scale).rounded() / scale, places)
    }

    private static func trimmed(_ value: Double, _ places: Int) -> String {
        let scale = pow(10, Double(places))
        let units = Int((value * scale).rounded())
        let sign = units < 0 ? "-" : ""
        let whole = abs(units) / Int(scale), fraction = abs(units) % Int(scale)
        guard fraction != 0 else { return "\(sign)\(whole)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: places - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(whole).\(digits)"
    }

    private static let stylesheet = """
        body{margin:24px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Noto Sans',sans-serif;color:#000;background:#fff}
        table{border-collapse:collapse;margin:12px 0 24px;font-size:14px}
        th,td{border:1px solid #C7C7CC;padding:4px 8px;text-align:start;vertical-align:middle}
        th{background:#F2F2F7}
        .sample{display:inline-block;padding:4px 10px;border-radius:6px;font-weight:600;border:1px solid #C7C7CC}
        .swatch{display:inline-block;width:18px;height:18px;border-radius:4px;border:1px solid #8E8E93;vertical-align:middle;margin-inline-end:4px}
        .warnings li{color:#B00020}
        small{color:#3C3C43;font-size:13px}
        """
}
