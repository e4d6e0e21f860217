import Foundation
import Strings
import StringsLint

/// `lookd lint` at scale: 2,000 keys × 50 locales generated into a temporary folder (plurals with each
/// locale's ICU categories, selects, dates, times, a few planted defects), linted with the library (reading the
/// files included), and the same content through translate-toolkit's `pofilter` in the same run. The PO files
/// are written before pofilter's clock starts. Target: lint ≤ 2 s and ≥ 10× faster than pofilter.
///
/// LOOKD_LINT_BENCH_DIR=DIR keeps the generated catalogs and PO files in DIR.
/// pofilter comes from `make bench` (a venv in .build/pofilter-venv); set LOOKD_POFILTER to use another.
let lintSuite = BenchmarkSuite(name: "lint") {
    let keyCount = 2_000
    // LOOKD_LINT_BENCH_DIR keeps the generated files there (to run `lookd lint` on them by hand).
    let kept = ProcessInfo.processInfo.environment["LOOKD_LINT_BENCH_DIR"]
    let folder = kept.map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("lookd-lint-bench-\(getpid())")
    defer { if kept == nil { try? FileManager.default.removeItem(at: folder) } }
    let catalogs = folder.appendingPathComponent("catalogs")
    let poFolder = folder.appendingPathComponent("po")
    let poOut = folder.appendingPathComponent("po-out")
    do {
        for url in [catalogs, poFolder, poOut] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    } catch {
        print("cannot create \(folder.path): \(error)")
        return
    }

    var generated = LintBenchContent(keyCount: keyCount)
    do {
        try generated.write(catalogs: catalogs, po: poFolder)
    } catch {
        print("cannot write the generated catalogs: \(error)")
        return
    }
    let totalBytes = generated.byteCount
    print("input: \(keyCount) keys × \(LocaleTag.all.count) locales = \(keyCount * LocaleTag.all.count) messages, \(totalBytes / 1024) KiB of JSON")

    // lookd: read every file and lint (what `lookd lint` does minus printing).
    let clock = ContinuousClock()
    var lintTimes: [Duration] = []
    var findings: [LintFinding] = []
    for _ in 0..<4 {
        let start = clock.now
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: catalogs.path)) ?? []).sorted()
        let inputs = names.map { name in
            CatalogInput(name: name, bytes: [UInt8](FileManager.default.contents(atPath: catalogs.appendingPathComponent(name).path) ?? Data()))
        }
        findings = (try? Linter().lint(inputs)) ?? []
        lintTimes.append(clock.now - start)
    }
    let first = seconds(lintTimes[0])
    let median = seconds(lintTimes.dropFirst().sorted()[1])
    var byCheck: [String: Int] = [:]
    for finding in findings { byCheck[finding.check.code, default: 0] += 1 }
    print("lookd lint (library): first run \(format(first)) s, median of 3 more \(format(median)) s   target ≤ 2 s")
    print("  findings: \(findings.count) — " + byCheck.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))

    // pofilter on the same content, with its comparable checks.
    let pofilter = ProcessInfo.processInfo.environment["LOOKD_POFILTER"] ?? ".build/pofilter-venv/bin/pofilter"
    guard FileManager.default.isExecutableFile(atPath: pofilter) else {
        print("pofilter: not found at \(pofilter) (make bench installs it into .build/pofilter-venv); no comparison")
        return
    }
    let checks = ["untranslated", "blank", "unchanged", "variables", "pythonbraceformat", "brackets", "endpunc",
                  "startwhitespace", "endwhitespace", "newlines", "tabs", "escapes", "long"]
    guard let pofilterSeconds = timePofilter(pofilter, ["--progress=none", "--nofuzzy"] + checks.flatMap { ["-t", $0] } + ["-i", poFolder.path, "-o", poOut.path]) else { return }
    let flagged = LintBenchContent.countUnits(in: poOut)
    print("pofilter (translate-toolkit, \(checks.count) checks: \(checks.joined(separator: " "))): \(format(pofilterSeconds)) s, \(flagged) units flagged")
    print("ratio: lookd lint is \(String(format: "%.1f", pofilterSeconds / median))× faster (median run), \(String(format: "%.1f", pofilterSeconds / first))× (first run)   target ≥ 10×")
}

/// Runs pofilter with `arguments` to its exit and returns its wall-clock seconds, or nil (said on stdout) when it
/// cannot run or fails: the lint suites' anchor, timed the same way by each.
func timePofilter(_ pofilter: String, _ arguments: [String]) -> Double? {
    timeAnchor("pofilter", pofilter, arguments)
}

/// Runs an anchor program (`name` for messages) with `arguments` in `directory` (default: the current one) to its
/// exit and returns its wall-clock seconds, or nil (said on stdout) when it cannot run or exits with a status
/// not in `accepted`.
func timeAnchor(_ name: String, _ executable: String, _ arguments: [String], in directory: URL? = nil, accepted: Set<Int32> = [0]) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = ContinuousClock.now
    do {
        try process.run()
    } catch {
        print("\(name): cannot run \(executable): \(error)")
        return nil
    }
    process.waitUntilExit()
    let elapsed = seconds(ContinuousClock.now - start)
    guard accepted.contains(process.terminationStatus) else {
        print("\(name): exited with \(process.terminationStatus) after \(format(elapsed)) s; no comparison")
        return nil
    }
    return elapsed
}

private func format(_ value: Double) -> String { String(format: "%.3f", value) }

/// The generated catalogs: deterministic, varied patterns; translations use each locale's own plural
/// categories (from ICU), so the linter's clean path is the one exercised, plus a few planted defects per locale.
struct LintBenchContent {
    let keyCount: Int
    private(set) var byteCount = 0

    init(keyCount: Int) { self.keyCount = keyCount }

    func key(_ index: Int) -> String { "screen\(index / 50).item\(index % 50).label" }

    func source(_ index: Int) -> String {
        switch index % 6 {
        case 0: "Message \(index): {name} sent you a file."
        case 1: "{count, plural, one {# new reply in thread \(index)} other {# new replies in thread \(index)}}"
        case 2: "{status, select, online {Online since {time, time, short}} away {Away} other {Offline}}"
        case 3: "Renews {date, date, ::dMMM}. Keep using {plan}!"
        case 4: "{count, plural, =0 {No photos in album \(index)} one {{gender, select, female {She added # photo} other {They added # photo}}} other {{gender, select, female {She added # photos} other {They added # photos}}}}"
        default: "Plain text number \(index) with a few words to read"
        }
    }

    func translation(_ index: Int, tag: String, categories: [PluralCategory]) -> String? {
        let marker = "⟦\(tag)⟧"
        if index % 97 == 5 { return nil } // missing
        if index % 101 == 7 { return source(index) } // identical
        func plural(_ argument: String, _ body: (PluralCategory) -> String) -> String {
            "{\(argument), plural, " + categories.map { "\($0.rawValue) {\(body($0))}" }.joined(separator: " ") + "}"
        }
        switch index % 6 {
        case 0: return "\(marker) Nachricht \(index): {\(index % 89 == 0 ? "nom" : "name")} hat dir eine Datei geschickt."
        case 1: return plural("count") { "# \(marker) Antwort/\($0.rawValue) im Thread \(index)" }
        case 2: return "{status, select, online {\(marker) Online seit {time, time, short}} away {\(marker) Abwesend} other {\(marker) Offline}}"
        case 3: return "\(marker) Verlängert am {date, date, ::dMMM}. Weiter mit {plan}!"
        case 4:
            return "{count, plural, =0 {\(marker) Keine Fotos in Album \(index)} " + categories.map { category in
                "\(category.rawValue) {{gender, select, female {\(marker) Sie hat # Foto/\(category.rawValue) hinzugefügt} other {\(marker) # Foto/\(category.rawValue) hinzugefügt}}}"
            }.joined(separator: " ") + "}"
        default: return "\(marker) Einfacher Text Nummer \(index) mit ein paar Wörtern"
        }
    }

    mutating func write(catalogs: URL, po: URL) throws {
        var source = "{\n"
        for index in 0..<keyCount {
            source += "  \(jsonString(key(index))): {\"message\": \(jsonString(self.source(index))), \"maxLength\": 120}"
            source += index == keyCount - 1 ? "\n" : ",\n"
        }
        source += "}\n"
        try write(source, to: catalogs.appendingPathComponent("en.json"))
        for locale in LocaleTag.all where locale != .english {
            let categories = PluralRules.forLocale(locale)?.categories ?? [.other]
            var json = "{\n"
            var poText = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"Language: \(locale.identifier)\\n\"\n\n"
            var lines: [String] = []
            for index in 0..<keyCount {
                let text = translation(index, tag: locale.identifier, categories: categories)
                if let text { lines.append("  \(jsonString(key(index))): \(jsonString(text))") }
                poText += "msgctxt \(poString(key(index)))\nmsgid \(poString(self.source(index)))\nmsgstr \(poString(text ?? ""))\n\n"
            }
            json += lines.joined(separator: ",\n") + "\n}\n"
            try write(json, to: catalogs.appendingPathComponent("\(locale.identifier).json"))
            try write(poText, to: po.appendingPathComponent("\(locale.identifier).po"))
        }
    }

    private mutating func write(_ text: String, to url: URL) throws {
        let data = Data(text.utf8)
        byteCount += url.pathExtension == "json" ? data.count : 0
        try data.write(to: url)
    }

    private func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private func poString(_ text: String) -> String { jsonString(text) } // PO uses the same C-style escapes here

    /// Units (msgid lines) in pofilter's output files, minus each file's header.
    static func countUnits(in folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var count = 0
        for name in names {
            guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else { continue }
            count += text.components(separatedBy: "\nmsgid ").count - 1
        }
        return count
    }
}
