import Foundation
import StringsFormats
import StringsLint

/// `lookd lint` and Mozilla's `compare-locales` (PyPI, which reads Android `strings.xml`) on the same generated
/// Android `res/` tree, built from the patterns real apps ship (docs/lint.md, "Real projects"): `%1$s`, `%d`,
/// `%1$.1f`, arguments a translation reorders (`%2$s … %1$s`), `\'` escapes, `<plurals>`, `translatable="false"`
/// strings, `values-zh-rCN` / `values-pt-rBR` folders; and defects planted at fixed strides, counted while
/// generating: a string missing from a locale, a dropped placeholder, an integer given as text, an unescaped
/// apostrophe (aapt2 refuses it), a string English no longer has, a translation equal to its source, other end
/// punctuation, an unclosed right-to-left embedding, a plural lacking a category the locale needs. Both tools read
/// the same files; compare-locales is timed at its best of three runs (exit 0, or 1 for "errors found", with its
/// JSON report written; anything else is no comparison). The planted counts are printed beside each tool's.
///
/// LOOKD_LINT_BENCH_DIR=DIR keeps the generated files in DIR; compare-locales comes from `make bench`
/// (.build/compare-locales-venv) or LOOKD_COMPARE_LOCALES.
let androidLintSuite = BenchmarkSuite(name: "lint-android") {
    let kept = ProcessInfo.processInfo.environment["LOOKD_LINT_BENCH_DIR"]
    let folder = (kept.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory.appendingPathComponent("lookd-android-bench-\(getpid())"))
        .appendingPathComponent("android")
    defer { if kept == nil { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) } }
    let generated = AndroidBenchContent(qualifiers: ["de", "fr", "es", "it", "nl", "sv", "ru", "pl", "uk", "cs", "tr", "ar", "ja", "ko", "zh-rCN", "pt-rBR"],
                                        strings: 2_000)
    do {
        try generated.write(to: folder)
    } catch {
        print("cannot write the generated res/ tree: \(error)")
        return
    }
    let res = folder.appendingPathComponent("res").path
    print("input: res/ with \(generated.strings) strings (every \(AndroidBenchContent.pluralStride)th a <plurals>) × \(generated.qualifiers.count) locales + English")

    let clock = ContinuousClock()
    var times: [Duration] = []
    var findings: [LintFinding] = []
    for _ in 0..<4 {
        let start = clock.now
        findings = (try? FormatLintInput.detect(path: res)).flatMap { $0 }.map { Linter().lint($0) } ?? []
        times.append(clock.now - start)
    }
    let lookdSeconds = seconds(times.dropFirst().sorted()[1])
    var lookd: [String: Int] = [:]
    for finding in findings { lookd[finding.check.code, default: 0] += 1 }
    print("lookd lint (library, reading included): median of 3 after a warm-up \(String(format: "%.3f", lookdSeconds)) s")

    let compareLocales = ProcessInfo.processInfo.environment["LOOKD_COMPARE_LOCALES"] ?? ".build/compare-locales-venv/bin/compare-locales"
    guard FileManager.default.isExecutableFile(atPath: compareLocales) else {
        print("compare-locales: not found at \(compareLocales) (make bench installs it into .build/compare-locales-venv); no comparison")
        return
    }
    let report = folder.appendingPathComponent("compare-locales.json")
    var best: Double?
    for _ in 0..<3 {
        try? FileManager.default.removeItem(at: report)
        guard let elapsed = timeCompareLocales(URL(fileURLWithPath: compareLocales).standardizedFileURL.path, in: folder, report: report) else { return }
        best = min(best ?? elapsed, elapsed)
    }
    guard let best, let theirs = AndroidBenchContent.compareLocalesFindings(report) else {
        print("compare-locales: its JSON report could not be read; no comparison")
        return
    }
    print("compare-locales (\(generated.qualifiers.count) locales, l10n.toml over res/values-{android_locale}/strings.xml): best of 3 \(String(format: "%.3f", best)) s")
    print("ratio: lookd lint is \(String(format: "%.1f", best / lookdSeconds))× faster")

    let planted = generated.planted
    let rows: [(what: String, planted: Int, theirs: [String], ours: [String])] = [
        ("string missing from a locale", planted["missing"] ?? 0, ["missing"], ["missing-key"]),
        ("translatable=\"false\" string not in a locale (no defect)", 0, ["missing translatable=false"], []),
        ("placeholder dropped", planted["dropped"] ?? 0, ["formatter not found in translation"], ["argument-mismatch"]),
        ("integer given as text (%d → %s)", planted["type"] ?? 0, ["mismatching formatter"], ["argument-type"]),
        ("unescaped apostrophe", planted["apostrophe"] ?? 0, ["apostrophe must be escaped"], ["syntax-error"]),
        ("string English no longer has", planted["obsolete"] ?? 0, ["obsolete"], ["extra-key"]),
        ("translation equal to its source", planted["unchanged"] ?? 0, [], ["identical-to-source"]),
        ("other end punctuation", planted["endpunc"] ?? 0, [], ["end-punctuation"]),
        ("unclosed right-to-left embedding", planted["bidi"] ?? 0, [], ["unbalanced-bidi"]),
        ("plural lacking a category the locale needs", planted["plural"] ?? 0, [], ["missing-plural-category"]),
        ("<plurals> (not a defect)", 0, ["unparsed content", "parser error in en-US"], []),
    ]
    print("findings side by side (planted | compare-locales | lookd):")
    for row in rows {
        let cl = row.theirs.isEmpty ? "-" : row.theirs.map { "\($0) \(theirs[$0] ?? 0)" }.joined(separator: " + ")
        let ours = row.ours.isEmpty ? "-" : row.ours.map { "\($0) \(lookd[$0] ?? 0)" }.joined(separator: " + ")
        print("  \(row.what): \(row.planted) | \(cl) | \(ours)")
    }
    let listed = Set(rows.flatMap(\.theirs))
    let other = theirs.filter { !listed.contains($0.key) }.sorted { $0.key < $1.key }
    if !other.isEmpty { print("  compare-locales, other: " + other.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) }
    let ourListed = Set(rows.flatMap(\.ours))
    let ourOther = lookd.filter { !ourListed.contains($0.key) }.sorted { $0.key < $1.key }
    if !ourOther.isEmpty { print("  lookd, other: " + ourOther.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) }
}

/// Runs compare-locales over `folder`'s l10n.toml to its exit; its wall-clock seconds, or nil (said on stdout)
/// when it cannot run, exits with another status than 0 (clean) or 1 (errors found), or writes no report.
private func timeCompareLocales(_ executable: String, in folder: URL, report: URL) -> Double? {
    guard let elapsed = timeAnchor("compare-locales", executable, ["--json", report.path, "l10n.toml", "."], in: folder, accepted: [0, 1]) else { return nil }
    guard FileManager.default.fileExists(atPath: report.path) else {
        print("compare-locales: wrote no report; no comparison")
        return nil
    }
    return elapsed
}

/// The generated `res/` tree and compare-locales' `l10n.toml`: deterministic, each defect planted at a fixed stride
/// and counted.
struct AndroidBenchContent {
    /// Android locale qualifiers (`values-QUALIFIER`).
    let qualifiers: [String]
    let strings: Int
    private(set) var planted: [String: Int] = [:]
    static let pluralStride = 50
    static let untranslatableStride = 100

    init(qualifiers: [String], strings: Int) {
        self.qualifiers = qualifiers
        self.strings = strings
        for qualifier in qualifiers { _ = file(qualifier: qualifier, counting: &planted) }
    }

    /// English text of string `index`: the patterns of real apps' strings.xml.
    static func english(_ index: Int) -> String {
        switch index % 6 {
        case 0: "Open settings number \(index)."
        case 1: "%1$s liked your post \(index)."
        case 2: "%d new messages in \(index)"
        case 3: "%1$s invited %2$s to group \(index)."
        case 4: "Download %1$.1f MB of \(index)"
        default: "Don\\'t lose item \(index)."
        }
    }

    /// A clean translation of string `index`.
    static func translation(_ index: Int, _ word: String) -> String {
        switch index % 6 {
        case 0: "\(word) Einstellungen \(index) öffnen."
        case 1: "%1$s \(word) mag deinen Beitrag \(index)."
        case 2: "%d \(word) neue Nachrichten in \(index)"
        case 3: "%2$s \(word) wurde von %1$s eingeladen \(index)."
        case 4: "\(word) %1$.1f MB von \(index) laden"
        default: "\(word) Element \(index) nicht verlieren."
        }
    }

    static func name(_ index: Int) -> String { index % untranslatableStride == 7 ? "brand_\(index)" : "string_\(index)" }

    /// The line of string `index` in a locale, nil when it is missing there; counts what it plants.
    static func line(_ index: Int, qualifier: String, counting planted: inout [String: Int]) -> String? {
        if index % untranslatableStride == 7 { return nil }  // translatable="false": only in English
        let word = "[\(qualifier)]"
        if index % pluralStride == 0 { return plural(index, qualifier: qualifier, counting: &planted) }
        var text = translation(index, word)
        if index % 13 == 5 {
            planted["missing", default: 0] += 1
            return nil
        } else if index % 97 == 13 && index % 6 == 1 {
            text = text.replacingOccurrences(of: "%1$s ", with: "")
            planted["dropped", default: 0] += 1
        } else if index % 89 == 2 && index % 6 == 2 {
            text = text.replacingOccurrences(of: "%d", with: "%s")
            planted["type", default: 0] += 1
        } else if index % 83 == 5 && index % 6 == 5 {
            text = "\(word) Don't lose item \(index)."
            planted["apostrophe", default: 0] += 1
        } else if index % 53 == 6 && index % 6 == 0 {
            text = english(index)
            planted["unchanged", default: 0] += 1
        } else if index % 41 == 6 && index % 6 == 0 {
            text = String(text.dropLast()) + "!"
            planted["endpunc", default: 0] += 1
        } else if index % 307 == 12 && index % 6 == 0 {
            text = "\u{202B}" + text
            planted["bidi", default: 0] += 1
        }
        return "    <string name=\"\(name(index))\">\(text)</string>"
    }

    /// A `<plurals>` with the categories each locale's integers select (ICU's rules for those languages); every
    /// third one in a locale with `few` leaves `few` out.
    static func plural(_ index: Int, qualifier: String, counting planted: inout [String: Int]) -> String {
        let language = qualifier.prefix { $0 != "-" }
        var categories: [String] = switch language {
        case "ru", "uk", "pl": ["one", "few", "many", "other"]
        case "cs": ["one", "few", "many", "other"]
        case "ar": ["zero", "one", "two", "few", "many", "other"]
        case "ja", "ko", "zh", "tr": ["other"]
        case "fr", "es", "it", "pt": ["one", "many", "other"]
        default: ["one", "other"]
        }
        if language == "tr" { categories = ["one", "other"] }
        if categories.contains("few"), index % (3 * pluralStride) == 0 {
            categories.removeAll { $0 == "few" }
            planted["plural", default: 0] += 1
        }
        let items = categories.map { "        <item quantity=\"\($0)\">%d [\(qualifier)] Dateien \(index) (\($0))</item>" }
        return (["    <plurals name=\"files_\(index)\">"] + items + ["    </plurals>"]).joined(separator: "\n")
    }

    private func file(qualifier: String, counting planted: inout [String: Int]) -> String {
        var lines = ["<?xml version=\"1.0\" encoding=\"utf-8\"?>", "<resources>"]
        for index in 0..<strings {
            if let line = Self.line(index, qualifier: qualifier, counting: &planted) { lines.append(line) }
        }
        for index in stride(from: 0, to: strings, by: 211) {
            lines.append("    <string name=\"old_\(index)\">\(Self.translation(index, "[\(qualifier)]"))</string>")
            planted["obsolete", default: 0] += 1
        }
        lines.append("</resources>")
        return lines.joined(separator: "\n") + "\n"
    }

    private var englishFile: String {
        var lines = ["<?xml version=\"1.0\" encoding=\"utf-8\"?>", "<resources>"]
        for index in 0..<strings {
            if index % Self.untranslatableStride == 7 {
                lines.append("    <string name=\"\(Self.name(index))\" translatable=\"false\">Ledgerly \(index)</string>")
            } else if index % Self.pluralStride == 0 {
                lines.append("    <plurals name=\"files_\(index)\">")
                lines.append("        <item quantity=\"one\">%d file \(index)</item>")
                lines.append("        <item quantity=\"other\">%d files \(index)</item>")
                lines.append("    </plurals>")
            } else {
                lines.append("    <string name=\"\(Self.name(index))\">\(Self.english(index))</string>")
            }
        }
        lines.append("</resources>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `res/values*/strings.xml` and `l10n.toml` under `folder`.
    func write(to folder: URL) throws {
        var ignored: [String: Int] = [:]
        let files = [("values", englishFile)] + qualifiers.map { ("values-" + $0, file(qualifier: $0, counting: &ignored)) }
        for (directory, text) in files {
            let url = folder.appendingPathComponent("res/\(directory)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url.appendingPathComponent("strings.xml"))
        }
        // compare-locales maps {android_locale} (zh-rCN, pt-rBR) to locale codes (zh-CN, pt-BR) itself.
        let locales = qualifiers.map { $0.replacingOccurrences(of: "-r", with: "-") }
        let toml = """
            basepath = "."
            locales = [\(locales.map { "\"\($0)\"" }.joined(separator: ", "))]

            [[paths]]
                reference = "res/values/strings.xml"
                l10n = "res/values-{android_locale}/strings.xml"

            """
        try Data(toml.utf8).write(to: folder.appendingPathComponent("l10n.toml"))
    }

    /// compare-locales' JSON report (`details` → folder → file → `{"error"|"warning"|"missingEntity"|
    /// "obsoleteEntity": …}`) counted by kind: missing, obsolete, and its messages by their first words.
    static func compareLocalesFindings(_ report: URL) -> [String: Int]? {
        guard let data = FileManager.default.contents(atPath: report.path),
              let top = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return nil }
        var counts: [String: Int] = [:]
        func walk(_ value: Any) {
            if let list = value as? [Any] { list.forEach(walk); return }
            guard let object = value as? [String: Any] else { return }
            for (kind, inner) in object {
                switch kind {
                case "missingEntity":
                    let untranslatable = (inner as? String)?.hasPrefix("brand_") == true
                    counts[untranslatable ? "missing translatable=false" : "missing", default: 0] += 1
                case "obsoleteEntity":
                    counts["obsolete", default: 0] += 1
                case "error", "warning":
                    let message = ((inner as? String) ?? "").lowercased()
                    let kinds = [("not found in translation", "formatter not found in translation"), ("mismatching formatter", "mismatching formatter"),
                                 ("apostrophe must be escaped", "apostrophe must be escaped"), ("unparsed content", "unparsed content"),
                                 ("parser error in en-us", "parser error in en-US"), ("not found in reference", "formatter not found in reference")]
                    let label = kinds.first { message.contains($0.0) }?.1 ?? "\(kind): " + String(message.prefix(40))
                    counts[label, default: 0] += 1
                default:
                    walk(inner)
                }
            }
        }
        top.forEach { walk($0["details"] ?? [:]) }
        return counts
    }
}
