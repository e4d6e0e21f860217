import Foundation
@testable import StringsLint
import Strings
import Testing

/// The fixture trees: one planted defect per check, and a clean tree that must stay clean.
@Suite(.timeLimit(.minutes(10))) struct LintFixtureTests {
    /// Every finding of Tests/Fixtures/lint/defects, exactly: code, severity, file, line, column.
    static let expectedDefects: [Spot] = [
        Spot("invalid-json", .error, "bg.json", 3, 12),                 // unterminated string
        Spot("argument-type", .error, "cs.json", 3, 23),                // {count, number} for a plural
        Spot("too-long", .warning, "da.json", 2, 16),                   // 33 characters, maxLength 20
        Spot("duplicate-key", .error, "de.json", 5, 3),                 // "greeting" again
        Spot("extra-key", .warning, "de.json", 6, 3),                   // "farewell"
        Spot("syntax-error", .error, "es.json", 2, 24),                 // "{name!" (ICU points at the name)
        Spot("end-punctuation", .warning, "fi.json", 2, 26),            // no "!"
        Spot("missing-key", .error, "fr.json", 1, 1),                   // no "status"
        Spot("missing-decimal-category", .warning, "fr.json", 3, 14),   // fr `many` (1,000,000)
        Spot("unbalanced-bidi", .error, "he.json", 2, 22),              // \u2067 without PDI, at the escape
        Spot("invalid-utf8", .error, "hr.json", 3, 74),                 // byte 0xFF
        Spot("missing-other", .error, "it.json", 4, 14),                // select without other
        Spot("unreachable-plural-category", .warning, "ja.json", 3, 29), // `one` in ja
        Spot("space-around-cjk-placeholder", .warning, "ja.json", 5, 34), // "{date} に更新": 11月3日 + space + に
        Spot("whitespace", .warning, "nb.json", 2, 28),                 // trailing space
        Spot("control-character", .error, "nl.json", 2, 22),            // \u0007, at the escape
        Spot("argument-mismatch", .error, "pl.json", 2, 16),            // drops {name}
        Spot("argument-mismatch", .error, "pl.json", 2, 24),            // uses {nazwa}
        Spot("file-name", .error, "pt-br.json", 1, 1),                  // case: pt-BR
        Spot("file-name", .error, "pt_BR.json", 1, 1),                  // not BCP 47
        Spot("missing-plural-category", .error, "ru.json", 3, 14),      // ru `many` (0, 5, 6…)
        Spot("empty-value", .warning, "sk.json", 4, 13),
        Spot("identical-to-source", .warning, "sv.json", 4, 14),        // two words, same script
        Spot("suffix-on-plain-argument", .warning, "tr.json", 2, 22),   // "{name}'e": the dative's form depends on the name
        Spot("unreadable-file", .error, "uk.json", 1, 1),               // a dangling link
    ]

    @Test func everyPlantedDefectAtItsPlace() throws {
        let findings = try Linter().lint(try catalogInputs(lintFixture("defects")))
        #expect(findings.map(Spot.init) == Self.expectedDefects)
        // One fixture per check: every check of lookd catalogs is exercised (the format-only checks are in
        // StringsFormatsTests).
        #expect(Set(findings.map(\.check)) == Set(LintCheck.allCases).subtracting([.unsupportedConstruct, .translationState, .unknownLocale, .markupMismatch]))
        for finding in findings {
            #expect(finding.severity == finding.check.defaultSeverity)
        }
    }

    @Test func messagesNameTheProblem() throws {
        let findings = try Linter().lint(try catalogInputs(lintFixture("defects")))
        func message(_ file: String, _ check: LintCheck) -> String {
            findings.first { $0.file == file && $0.check == check }?.message ?? ""
        }
        #expect(message("ru.json", .missingPluralCategory).contains("'many'"))
        #expect(message("ru.json", .missingPluralCategory).contains("0, 5, 6"))
        #expect(message("ja.json", .unreachablePluralCategory).contains("'one'"))
        #expect(message("ja.json", .spaceAroundCJKPlaceholder).contains("11月3日"))
        #expect(message("tr.json", .suffixOnPlainArgument).contains("“'e” is joined to {name}"))
        #expect(message("es.json", .syntaxError).contains("U_PATTERN_SYNTAX_ERROR"))
        #expect(message("pt-br.json", .fileName).contains("pt-BR.json"))
        #expect(message("nl.json", .controlCharacter).contains("U+0007"))
        #expect(message("de.json", .duplicateKey).contains("line 2"))
        #expect(message("cs.json", .argumentType).contains("plural in the source but number here"))
        #expect(findings.first { $0.check == .missingKey }?.key == "status")
    }

    @Test func cleanTreeIsClean() throws {
        let folder = lintFixture("clean")
        let findings = try Linter(configuration: try configuration(in: folder)).lint(try catalogInputs(folder))
        #expect(findings.isEmpty, "\(findings.map(Spot.init))")
    }

    @Test func cleanTreeWithoutItsAllowlistFlagsOnlyTheBrandInOtherScripts() throws {
        let findings = try Linter().lint(try catalogInputs(lintFixture("clean")))
        #expect(findings.map(\.check) == [.identicalToSource, .identicalToSource, .identicalToSource])
        #expect(findings.map(\.file) == ["ar.json", "ja.json", "ru.json"])
        #expect(findings.allSatisfy { $0.key == "brand" })
    }

    /// The project's own catalogs, with `--strict` semantics: no error and no warning.
    @Test func projectCatalogsLintClean() throws {
        let findings = try Linter().lint(try catalogInputs(catalogDirectory))
        #expect(findings.isEmpty, "\(findings.map { "\(Spot($0)) \($0.message)" })")
    }
}
