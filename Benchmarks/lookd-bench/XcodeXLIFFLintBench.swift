import Foundation
import StringsFormats
import StringsLint

/// `lookd lint` and translate-toolkit's `pofilter` on the same Xcode exports, generated from the patterns real
/// apps ship (docs/lint.md, "Real projects"): one `TAG.xliff` per locale with many `<file>`s (`original=
/// "…/Localizable.xcstrings"`, the tool `com.apple.dt.xcode`), printf placeholders (`%@`, `%lld`, `%1$@ %2$@`,
/// `%.1f`, `%%`), and defects planted at fixed places: a dropped placeholder, an integer given as text, a unit
/// without a target, a target equal to its source, other end punctuation, a trailing space, a lone `%`. Both tools
/// read the same files (pofilter reads XLIFF itself); the planted counts are printed beside each tool's. Target:
/// lookd ≥ 10× faster than pofilter.
///
/// LOOKD_LINT_BENCH_DIR=DIR keeps the generated files in DIR; pofilter comes from `make bench` (.build/pofilter-venv)
/// or LOOKD_POFILTER.
let xcodeXLIFFLintSuite = BenchmarkSuite(name: "lint-xliff") {
    let kept = ProcessInfo.processInfo.environment["LOOKD_LINT_BENCH_DIR"]
    let folder = (kept.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory.appendingPathComponent("lookd-xliff-bench-\(getpid())"))
        .appendingPathComponent("xliff")
    defer { if kept == nil { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) } }
    let input = folder.appendingPathComponent("in")
    let output = folder.appendingPathComponent("pofilter-out")
    let generated = XcodeXLIFFBenchContent(locales: ["de", "fr", "ja", "ru", "pl", "pt-BR", "zh-Hans", "ar", "tr", "ko"], files: 25, unitsPerFile: 120)
    do {
        for url in [input, output] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        try generated.write(to: input)
    } catch {
        print("cannot write the generated XLIFF: \(error)")
        return
    }
    print("input: \(generated.locales.count) Xcode XLIFF files × \(generated.files) <file>s × \(generated.unitsPerFile) units = \(generated.locales.count * generated.files * generated.unitsPerFile) units")

    let paths = generated.locales.map { input.appendingPathComponent($0 + ".xliff").path }
    let clock = ContinuousClock()
    var times: [Duration] = []
    var cpuTimes: [Double] = []
    var findings: [LintFinding] = []
    for _ in 0..<4 {
        let start = clock.now
        let cpuStart = cpuSeconds(RUSAGE_SELF)
        findings = paths.flatMap { path in (try? FormatLintInput.detect(path: path)).flatMap { $0 }.map { Linter().lint($0) } ?? [] }
        times.append(clock.now - start)
        cpuTimes.append(cpuSeconds(RUSAGE_SELF) - cpuStart)
    }
    let lookdSeconds = seconds(times.dropFirst().sorted()[1])
    let lookdCPU = cpuTimes.dropFirst().sorted()[1]
    var lookd: [String: Int] = [:]
    for finding in findings { lookd[finding.check.code, default: 0] += 1 }
    print("lookd lint (library, reading included): median of 3 after a warm-up \(String(format: "%.3f", lookdSeconds)) s wall, \(String(format: "%.3f", lookdCPU)) s CPU (all threads)")

    let pofilter = ProcessInfo.processInfo.environment["LOOKD_POFILTER"] ?? ".build/pofilter-venv/bin/pofilter"
    guard FileManager.default.isExecutableFile(atPath: pofilter) else {
        print("pofilter: not found at \(pofilter) (make bench installs it into .build/pofilter-venv); no comparison")
        return
    }
    let tests = ["untranslated", "unchanged", "printf", "variables", "endpunc", "startwhitespace", "endwhitespace"]
    // pofilter runs once over the whole folder: one process for every file, so its start-up is paid once.
    let childrenStart = cpuSeconds(RUSAGE_CHILDREN)
    guard let pofilterSeconds = timePofilter(pofilter, ["--progress=none"] + tests.flatMap { ["-t", $0] } + ["-i", input.path, "-o", output.path]) else { return }
    let pofilterCPU = cpuSeconds(RUSAGE_CHILDREN) - childrenStart
    let flagged = XcodeXLIFFBenchContent.pofilterNotes(in: output)
    print("pofilter (translate-toolkit, -t \(tests.joined(separator: " -t "))): \(String(format: "%.3f", pofilterSeconds)) s wall, \(String(format: "%.3f", pofilterCPU)) s CPU")
    // On a loaded machine wall time mostly measures waiting for a core; CPU time is the work each tool did.
    print("ratio: lookd lint is \(String(format: "%.1f", pofilterSeconds / lookdSeconds))× faster (wall), \(String(format: "%.1f", pofilterCPU / lookdCPU))× (CPU)   target ≥ 10×")

    // Side by side: what was planted, what each tool reported under its own names.
    let rows: [(what: String, planted: Int, pofilter: [String], lookd: [String])] = [
        ("unit without a target", generated.planted["untranslated"] ?? 0, ["untranslated"], ["missing-key"]),
        ("placeholder dropped", generated.planted["dropped"] ?? 0, ["printf", "variables"], ["argument-mismatch"]),
        ("integer given as text (%lld → %@)", generated.planted["type"] ?? 0, [], ["argument-type"]),
        ("lone % in a string with arguments", generated.planted["lone"] ?? 0, [], ["syntax-error"]),
        ("target equal to its source", generated.planted["unchanged"] ?? 0, ["unchanged"], ["identical-to-source"]),
        ("other end punctuation", generated.planted["endpunc"] ?? 0, ["endpunc"], ["end-punctuation"]),
        ("trailing space", generated.planted["whitespace"] ?? 0, ["startwhitespace", "endwhitespace"], ["whitespace"]),
    ]
    print("findings side by side (planted | pofilter | lookd):")
    for row in rows {
        let theirs = row.pofilter.isEmpty ? "-" : row.pofilter.map { "\($0) \(flagged[$0] ?? 0)" }.joined(separator: " + ")
        let ours = row.lookd.map { "\($0) \(lookd[$0] ?? 0)" }.joined(separator: " + ")
        print("  \(row.what): \(row.planted) | \(theirs) | \(ours)")
    }
    let printfFlagged = flagged["printf"] ?? 0
    print("  (pofilter's printf test also flags the %lld → %@ type changes: printf \(printfFlagged) covers both rows above it)")
}

/// User + system CPU seconds used so far by `who` (`RUSAGE_SELF`: this process, every thread; `RUSAGE_CHILDREN`:
/// its children that have been waited for).
private func cpuSeconds(_ who: __rusage_who) -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(who.rawValue), &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The generated Xcode exports: deterministic, with each defect planted at a fixed stride and counted.
struct XcodeXLIFFBenchContent {
    let locales: [String]
    let files: Int
    let unitsPerFile: Int
    /// How many of each planted defect all files hold, counted while generating.
    private(set) var planted: [String: Int] = [:]

    init(locales: [String], files: Int, unitsPerFile: Int) {
        self.locales = locales
        self.files = files
        self.unitsPerFile = unitsPerFile
        for locale in locales { _ = document(locale: locale, counting: &planted) }
    }

    /// The defect planted in unit `index` (numbered across files), nil for a clean unit.
    static func defect(_ index: Int) -> String? {
        if index % 13 == 5 { return "untranslated" }
        if index % 97 == 11 { return "dropped" }
        if index % 89 == 17 { return "type" }
        if index % 101 == 23 { return "lone" }
        if index % 53 == 29 { return "unchanged" }
        if index % 41 == 31 { return "endpunc" }
        if index % 67 == 37 { return "whitespace" }
        return nil
    }

    /// The source and a clean target of unit `index`.
    static func texts(_ index: Int, locale: String) -> (source: String, target: String) {
        let word = "[\(locale)]"
        switch index % 5 {
        case 0: return ("Open settings number \(index).", "\(word) Einstellungen \(index) öffnen.")
        case 1: return ("%@ liked your post \(index).", "%@ \(word) mag deinen Beitrag \(index).")
        case 2: return ("%lld new messages in \(index)", "%lld \(word) neue Nachrichten in \(index)")
        case 3: return ("%1$@ invited %2$@ to group \(index).", "%2$@ \(word) wurde von %1$@ eingeladen \(index).")
        default: return ("Download %.1f MB of \(index), 50%% done", "\(word) %.1f MB von \(index), 50%% fertig")
        }
    }

    /// The target with unit `index`'s defect planted, nil for none (no target); counts what it plants.
    static func target(_ index: Int, locale: String, counting planted: inout [String: Int]) -> String? {
        let (source, clean) = texts(index, locale: locale)
        guard let defect = defect(index) else { return clean }
        var result: String?
        switch defect {
        case "untranslated": result = nil
        case "dropped" where clean.contains("%@"): result = clean.replacingOccurrences(of: "%@ ", with: "")
        case "type" where index % 5 == 2: result = clean.replacingOccurrences(of: "%lld", with: "%@")
        case "lone" where clean.contains("%@") && !clean.contains("%%"): result = clean + " 100% sicher"
        case "unchanged" where index % 5 == 0: result = source
        case "endpunc" where clean.hasSuffix("."): result = String(clean.dropLast()) + "!"
        case "whitespace": result = clean + " "
        default: return clean
        }
        planted[defect, default: 0] += 1
        return result
    }

    private func document(locale: String, counting planted: inout [String: Int]) -> String {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:1.2\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" version=\"1.2\">",
        ]
        for file in 0..<files {
            lines.append("  <file original=\"App/Feature\(file)/Localizable.xcstrings\" source-language=\"en\" target-language=\"\(locale)\" datatype=\"plaintext\">")
            lines.append("    <header>")
            lines.append("      <tool tool-id=\"com.apple.dt.xcode\" tool-name=\"Xcode\" tool-version=\"15.0\" build-num=\"15A240d\"/>")
            lines.append("    </header>")
            lines.append("    <body>")
            for unit in 0..<unitsPerFile {
                let index = file * unitsPerFile + unit
                let (source, _) = Self.texts(index, locale: locale)
                lines.append("      <trans-unit id=\"\(XMLText.escape(source))\" xml:space=\"preserve\">")
                lines.append("        <source>\(XMLText.escape(source))</source>")
                if let target = Self.target(index, locale: locale, counting: &planted) {
                    lines.append("        <target state=\"translated\">\(XMLText.escape(target))</target>")
                }
                lines.append("        <note>Feature \(file), string \(unit)</note>")
                lines.append("      </trans-unit>")
            }
            lines.append("    </body>")
            lines.append("  </file>")
        }
        lines.append("</xliff>")
        return lines.joined(separator: "\n") + "\n"
    }

    func write(to folder: URL) throws {
        var ignored: [String: Int] = [:]
        for locale in locales {
            try Data(document(locale: locale, counting: &ignored).utf8).write(to: folder.appendingPathComponent(locale + ".xliff"))
        }
    }

    /// pofilter's notes in its output files, counted by test name (`<note from="pofilter">printf: …`).
    static func pofilterNotes(in folder: URL) -> [String: Int] {
        var counts: [String: Int] = [:]
        let marker = "<note from=\"pofilter\">"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else { continue }
            var rest = Substring(text)
            while let range = rest.range(of: marker) {
                rest = rest[range.upperBound...]
                let test = rest.prefix { $0 != ":" && $0 != "<" }
                counts[String(test), default: 0] += 1
            }
        }
        return counts
    }
}

/// XML escaping for the generated text.
private enum XMLText {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
