import Foundation
@testable import StringsLint
import Strings
import Testing

@Suite(.timeLimit(.minutes(10))) struct LintConfigurationTests {
    let defects = lintFixture("defects")

    @Test func severitiesPerCheckLocaleAndKey() throws {
        let json = """
            {
              "checks": {"extra-key": "error", "end-punctuation": "off"},
              "perLocale": {"fr": {"missing-key": "warning", "missing-decimal-category": "off"}},
              "perKey": {"gree*": {"too-long": "off"}, "greeting": {"whitespace": "error"}, "g*": {"whitespace": "off"}},
              "allowIdentical": ["{status, select, online {Online now} other {Offline now}}"]
            }
            """
        let configuration = try LintConfiguration.parse(Data(json.utf8))
        let findings = try Linter(configuration: configuration).lint(try catalogInputs(defects))
        let spots = Set(findings.map(Spot.init))
        #expect(spots.contains(Spot("extra-key", .error, "de.json", 6, 3)))            // raised by "checks"
        #expect(!findings.contains { $0.check == .endPunctuation })                      // off everywhere
        #expect(spots.contains(Spot("missing-key", .warning, "fr.json", 1, 1)))          // lowered for fr only
        #expect(!findings.contains { $0.check == .missingDecimalCategory })
        #expect(!findings.contains { $0.check == .tooLong })                             // key prefix
        #expect(spots.contains(Spot("whitespace", .error, "nb.json", 2, 28)))            // exact key beats prefixes
        #expect(!findings.contains { $0.check == .identicalToSource })                   // allowed value
        // Everything else is untouched.
        #expect(findings.count == LintFixtureTests.expectedDefects.count - 4)
    }

    @Test func precedence() {
        let configuration = LintConfiguration(
            checks: [.tooLong: .error], perLocale: ["de": [.tooLong: .off]],
            perKey: ["a.*": [.tooLong: .warning], "a.b.*": [.tooLong: .error], "a.b.c": [.tooLong: .off]])
        #expect(configuration.severity(of: .tooLong, locale: "fr", key: "x") == .error)
        #expect(configuration.severity(of: .tooLong, locale: "de", key: "x") == .off)
        #expect(configuration.severity(of: .tooLong, locale: "de", key: "a.x") == .warning)
        #expect(configuration.severity(of: .tooLong, locale: "de", key: "a.b.x") == .error)
        #expect(configuration.severity(of: .tooLong, locale: "de", key: "a.b.c") == .off)
        #expect(configuration.severity(of: .missingKey, locale: "de", key: "a.b.c") == .error)
    }

    @Test func configuredLocalesAndSource() throws {
        let configuration = LintConfiguration(source: "de", locales: ["de", "fr-CH"])
        let findings = try Linter(configuration: configuration).lint([
            CatalogInput(name: "de.json", bytes: Array(#"{"a": "Hallo {name}!"}"#.utf8)),
            CatalogInput(name: "fr-CH.json", bytes: Array(#"{"a": "Salut {name} !"}"#.utf8)),
            CatalogInput(name: "fr.json", bytes: Array(#"{"a": "Salut {name} !"}"#.utf8)),
        ])
        #expect(findings.map(Spot.init) == [Spot("file-name", .error, "fr.json", 1, 1)])
    }

    @Test func mistakesInTheFileAreErrors() {
        for json in [#"{"checks": {"too-lng": "off"}}"#, #"{"checks": {"too-long": "quiet"}}"#, #"{"check": {}}"#, "[1]", "{"] {
            #expect(throws: LintConfigurationError.self) { try LintConfiguration.parse(Data(json.utf8)) }
        }
    }

    @Test func baselineRoundTrip() throws {
        let inputs = try catalogInputs(defects)
        let findings = try Linter().lint(inputs)
        let file = try Baseline.decode(Baseline(findings: findings).encoded(describing: findings))
        #expect(file == Baseline(findings: findings))
        #expect(file.apply(to: findings).reported.isEmpty)
        #expect(file.apply(to: findings).suppressed.count == findings.count)

        // Lines moved (two blank lines at the top of fr.json) and one new defect (de drops "items"): only the new one shows.
        let edited = inputs.map { input -> CatalogInput in
            guard input.name == "fr.json" || input.name == "de.json", case .bytes(let bytes) = input.contents else { return input }
            var text = String(decoding: bytes, as: UTF8.self)
            if input.name == "fr.json" { text = "\n\n" + text }
            if input.name == "de.json" { text = text.replacingOccurrences(of: "\"items\"", with: "\"itemz\"") }
            return CatalogInput(name: input.name, bytes: Array(text.utf8))
        }
        let after = try Linter().lint(edited)
        let reported = file.apply(to: after).reported
        #expect(Set(reported.map(\.check)) == [.missingKey, .extraKey], "\(reported.map { "\(Spot($0)) \($0.message) \($0.fingerprint)" })")
        #expect(reported.allSatisfy { $0.file == "de.json" })
        #expect(reported.contains { $0.check == .missingKey && $0.key == "items" })
    }

    @Test func baselineCountsRepeats() {
        let finding = LintFinding(check: .tooLong, severity: .warning, file: "a/de.json", position: .start, locale: "de",
                                  key: "k", message: "m")
        let moved = LintFinding(check: .tooLong, severity: .warning, file: "b/de.json", position: SourcePosition(line: 9, column: 3),
                                locale: "de", key: "k", message: "m")
        let baseline = Baseline(findings: [finding])
        #expect(baseline.apply(to: [moved]).reported.isEmpty)          // same file name and key, another place
        #expect(baseline.apply(to: [moved, moved]).reported.count == 1) // a second one is new
    }
}
