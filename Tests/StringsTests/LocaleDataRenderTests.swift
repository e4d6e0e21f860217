import Foundation
import Testing
@testable import Strings

/// Dates, times and numbers of every locale's messages, formatted through lookd (`Localizer.format`) and through
/// ICU's own `MessageFormat` with the same pattern and locale, agree — and come from the locale's own data, not
/// ICU's root ("M11 3, Tue"). nb printed root data while ICU 72's `ures_openDirect("nb")`, called while building
/// fallback chains, had cached nb's parent as root instead of "no", for every later bundle load in the process.
@Suite(.timeLimit(.minutes(10))) struct LocaleDataRenderTests {
    /// 2026-11-03 12:00 UTC, a Tuesday.
    static let november3 = Date(timeIntervalSince1970: 1_793_707_200)
    static let numbers: [Argument] = [0, 1, 3, 21, 1_234_567, 2.5, -1]

    /// The argument sets to render a message with: dates on November 3, each sample number, strings as names.
    static func argumentSets(_ structure: MessageStructure) -> [[String: Argument]] {
        let types = structure.argumentTypes
        return numbers.map { number in
            types.mapValues { used -> Argument in
                if used.contains(.date) || used.contains(.time) { return .date(november3) }
                if used.contains(where: { [.number, .plural, .selectordinal, .choice, .other].contains($0) }) { return number }
                return "Ledgerly"
            }
        }
    }

    static func takesLocaleData(_ structure: MessageStructure) -> Bool {
        structure.arguments.contains { [.date, .time, .number, .plural, .selectordinal, .choice, .other].contains($0.type) }
    }

    @Test("every locale's date, time and number messages equal ICU's MessageFormat", arguments: LocaleTag.all)
    func matchesICUMessageFormat(_ locale: LocaleTag) throws {
        // Build every chain first: that is what used to poison ICU's bundle cache for nb.
        for other in LocaleTag.all { _ = FallbackChain.chain(for: other) }
        var rendered = 0
        for (key, entry) in realLocalizer.catalogs(for: locale).entries.sorted(by: { $0.key < $1.key }) {
            let structure = try realLocalizer.structure(key: key, locale: locale)
            guard Self.takesLocaleData(structure) else { continue }
            let sameLanguage = LanguageTag.subtags(entry.servedBy.identifier).language == LanguageTag.subtags(locale.identifier).language
            let reference = try MessageFormatter(pattern: entry.pattern, locale: sameLanguage ? locale.identifier : entry.servedBy.identifier)
            for arguments in Self.argumentSets(structure) {
                let lookd = try realLocalizer.format(key: key, locale: locale, arguments: arguments).text
                let icu = try reference.format(arguments, options: .default, key: key, engine: .icuMessageFormat)
                #expect(lookd == icu, "\(locale) \(key) \(arguments)")
                // ICU's root data names months M01…M12; no shipped locale does.
                if structure.arguments.contains(where: { $0.type == .date }) {
                    #expect(lookd.range(of: "M1[0-2]\\b", options: .regularExpression) == nil, "\(locale) \(key): \(lookd)")
                }
                rendered += 1
            }
        }
        #expect(rendered > 0)
    }

    @Test func norwegianDatesUseNorwegianData() throws {
        let arguments: [String: Argument] = ["date": .date(Self.november3), "product": "Ledgerly Plus"]
        let nb = tag("nb")
        #expect(try realLocalizer.format(key: "thread.dayHeader", locale: nb, arguments: arguments).text == "tirsdag 3. november")
        #expect(try realLocalizer.format(key: "plan.renews", locale: nb, arguments: arguments, options: FormatOptions(isolateStrings: false)).text
            == "Ledgerly Plus fornyes 3. nov.")
        #expect(try formatPattern("{d, date, ::EEEEdMMMM}", "nb", ["d": .date(Self.november3)]) == "tirsdag 3. november")
    }
}
