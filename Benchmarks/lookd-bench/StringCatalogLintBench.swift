import Foundation
import Strings
import StringsFormats
import StringsLint

/// `lookd lint` on a String Catalog against the same content as lookd JSON, in the same run: 2,000 keys × 50
/// locales (plain text, an argument, a date, and plurals with each locale's ICU categories and `=0`), exported
/// once with `StringCatalogFormat`. Both are timed from bytes in memory to findings (median of 3 after one
/// warm-up run). Target: the same order of time (ratio well under 10×).
let stringCatalogLintSuite = BenchmarkSuite(name: "lint-formats") {
    let content = StringCatalogBenchContent.make(keyCount: 2_000)
    let catalogFiles = content.files.map { CatalogInput(name: $0.name, bytes: $0.bytes) }
    let exported: FormatFiles
    do {
        exported = try StringCatalogFormat().write(content)
    } catch {
        print("cannot export the generated catalogs: \(error)")
        return
    }
    guard let input = FormatLintInput(name: "Localizable.xcstrings", kind: "xcstrings", files: exported) else { return }
    let jsonBytes = catalogFiles.reduce(0) { total, file in
        if case .bytes(let bytes) = file.contents { return total + bytes.count }
        return total
    }
    print("input: 2000 keys × \(LocaleTag.all.count) locales; lookd JSON \(jsonBytes / 1024) KiB in 50 files, String Catalog \((exported.single?.count ?? 0) / 1024) KiB")

    let linter = Linter()
    func median(_ body: () -> Int) -> (seconds: Double, findings: Int) {
        let clock = ContinuousClock()
        var times: [Duration] = []
        var findings = 0
        for _ in 0..<4 {
            let start = clock.now
            findings = body()
            times.append(clock.now - start)
        }
        let middle = times.dropFirst().sorted()[1]
        return (Double(middle.components.seconds) + Double(middle.components.attoseconds) / 1e18, findings)
    }
    let json = median { (try? linter.lint(catalogFiles))?.count ?? -1 }
    let catalog = median { linter.lint(input).count }
    print("lookd JSON:      \(String(format: "%.3f", json.seconds)) s (median of 3), \(json.findings) findings")
    print("String Catalog:  \(String(format: "%.3f", catalog.seconds)) s (median of 3), \(catalog.findings) findings")
    print("ratio String Catalog / JSON: \(String(format: "%.2f", catalog.seconds / json.seconds))×   target: same order (< 10×)")
}

/// Generated catalogs for the format bench: every message kind an export carries, translated in all 49 locales.
enum StringCatalogBenchContent {
    static func make(keyCount: Int) -> CatalogContent {
        var source: [CatalogContent.SourceEntry] = []
        var translations: [CatalogLocale: [CatalogContent.Translation]] = [:]
        let locales = LocaleTag.all.filter { $0 != .english }
        for index in 0..<keyCount {
            let key = "bench.group\(index / 50).key\(index)"
            let kind = index % 4
            let english: String = switch kind {
            case 0: "Plain message number \(index) for the bench."
            case 1: "{name} sent message \(index)."
            case 2: "Sent on {date, date, ::dMMM} (\(index))"
            default: "{count, plural, =0 {No items (\(index))} one {# item (\(index))} other {# items (\(index))}}"
            }
            source.append(.init(key: key, message: english, description: "Generated message \(index).", maxLength: 120))
            for locale in locales {
                let tag = locale.identifier
                let pattern: String
                switch kind {
                case 0: pattern = "[\(tag)] Plain message \(index)."
                case 1: pattern = "[\(tag)] {name}: message \(index)."
                case 2: pattern = "[\(tag)] {date, date, ::dMMM} (\(index))"
                default:
                    let categories = PluralRules.forLocale(locale)?.categories ?? [.other]
                    var cases = ["=0 {[\(tag)] none \(index)}"]
                    if categories.contains(.zero) { cases.append("zero {[\(tag)] none \(index)}") }
                    cases += categories.filter { $0 != .zero }.map { "\($0.rawValue) {[\(tag)] # \($0.rawValue) \(index)}" }
                    pattern = "{count, plural, \(cases.joined(separator: " "))}"
                }
                translations[CatalogLocale(locale), default: []].append(.init(key: key, pattern: pattern))
            }
        }
        return CatalogContent(source: source, translations: translations)
    }
}
