import Foundation
import Strings
import StringsLint
import Testing
@testable import StringsFormats

/// `lookd lint` on an Android `res/` folder whose strings are not in `strings.xml`: Android merges every XML file
/// of a `values*` folder, whatever its name (element-x-android: English in `values/localazy.xml`, translations
/// in `values-*/translations.xml`, emoji names in `strings_sas.xml`). Before, such a project had "nothing to lint".
@Suite(.timeLimit(.minutes(10))) struct ValuesFilesLintTests {
    static let res = CatalogFixtures.fixture("realworld/values-files-res")

    /// The findings, worked out by hand from `realworld/values-files-res`: Norwegian lacks `screen_login_subtitle`
    /// (in its only file) and `verification_emoji_dog` (English has it in `strings_sas.xml`, Norwegian has no such
    /// file), and `error__etc__disk_full` — AnkiDroid's `__` names are keys, not lookd's select cases, there being no
    /// `error__etc__other` (before: a select `error` without `other`, `missing-other` and `duplicate-key`) —, and its
    /// `common_replies` lacks `one` (CLDR: nb selects `one` for 1); Greek writes `%Β`, which Java's Formatter refuses.
    /// German is complete across its two files. Not reported: `matrix_to_host` (`donottranslate.xml`, Android
    /// lint's file of untranslatable strings), `theme_key` and `theme_values` (a file whose `<resources
    /// translatable="false">`), `theme_labels` (a string array outside `strings.xml`), `funding_contribution_title`
    /// (`values/funding_strings.xml`, which no locale translates: an overlay of another module's English, like
    /// thunderbird-android's `app-k9mail/…/values/funding_strings.xml`), `<color>`/`<dimen>` (not strings),
    /// `values-night` (not a locale).
    @Test func everyValuesFileIsReadAsAndroidMergesThem() throws {
        let input = try #require(try FormatLintInput.detect(path: Self.res.path))
        let found = Linter(configuration: LintConfiguration()).lint(input)
            .map { "\($0.check.code) \($0.locale ?? "") \($0.key ?? "") \(($0.file as NSString).lastPathComponent)" }
        #expect(found.sorted() == [
            "missing-key nb error__etc__disk_full translations.xml",
            "missing-key nb screen_login_subtitle translations.xml",
            "missing-key nb verification_emoji_dog translations.xml",
            "missing-plural-category nb common_replies translations.xml",
            "syntax-error el screen_poll_votes translations.xml",
        ])
        // The files holding strings (`colors.xml` of values/ and values-night/, `arrays.xml` do not).
        #expect(input.fileCount == 9)
        #expect(ProjectSearch.lintableInputs(under: Self.res.path) == [Self.res.path])
    }

    /// A file given alone is linted against its project's whole English (`values/localazy.xml` and
    /// `values/strings_sas.xml`), only its own findings reported; a finding about a key names the file that holds it.
    @Test func oneValuesFileIsLintedAgainstTheWholeSource() throws {
        let file = Self.res.appendingPathComponent("values-el/translations.xml").path
        let input = try #require(try FormatLintInput.detect(path: file))
        let found = Linter(configuration: LintConfiguration()).lint(input).map { "\($0.check.code) \($0.key ?? "") \($0.file == file)" }
        #expect(found == ["syntax-error screen_poll_votes true"])
        let german = Self.res.appendingPathComponent("values-de/strings_sas.xml").path
        #expect(Linter(configuration: LintConfiguration()).lint(try #require(try FormatLintInput.detect(path: german))).isEmpty)
    }

    /// A select lookd wrote (`status__status__online`, …, `status__status__other`) is still one key with its cases:
    /// whatever German's missing case gives, it is about the select `status`, never a missing key `status__status__away`.
    @Test func aSelectLookdWroteIsStillASelect() throws {
        let res = try FormatCommandTests.scratch().appendingPathComponent("res")
        defer { try? FileManager.default.removeItem(at: res.deletingLastPathComponent()) }
        let english = "<resources>\n  <string name=\"status__status__online\">Online</string>\n  <string name=\"status__status__away\">Away</string>\n  <string name=\"status__status__other\">Offline</string>\n</resources>\n"
        let german = "<resources>\n  <string name=\"status__status__online\">Online</string>\n  <string name=\"status__status__other\">Offline</string>\n</resources>\n"
        for (folder, text) in [("values", english), ("values-de", german)] {
            try FileManager.default.createDirectory(at: res.appendingPathComponent(folder), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: res.appendingPathComponent(folder + "/strings.xml"))
        }
        let input = try #require(try FormatLintInput.detect(path: res.path))
        let keys = Set(Linter(configuration: LintConfiguration()).lint(input).compactMap(\.key))
        #expect(keys.isSubset(of: ["status"]), "\(keys)")
    }

    /// Compose Multiplatform resources do not escape quotes ("you don't have to mirror quotes", its maintainers on
    /// JetBrains/compose-multiplatform#4178): `Don't` in `composeResources/values*/strings.xml` is text, where
    /// aapt2 refuses it in an Android `res/` folder. thunderbird-android's `feature/notification/api/src/commonMain/
    /// composeResources` gave 28 such false errors (values-ca, -cy, -br, -it, -iw, -uk).
    @Test func composeResourcesNeedNoEscapedApostrophes() throws {
        let compose = CatalogFixtures.fixture("realworld/modules-project/shared/src/commonMain/composeResources")
        #expect(Linter(configuration: LintConfiguration()).lint(try #require(try FormatLintInput.detect(path: compose.path))).isEmpty)
        let res = try FormatCommandTests.scratch().appendingPathComponent("res")
        defer { try? FileManager.default.removeItem(at: res.deletingLastPathComponent()) }
        try FileManager.default.copyItem(at: compose, to: res)
        let found = Linter(configuration: LintConfiguration()).lint(try #require(try FormatLintInput.detect(path: res.path)))
        #expect(found.map { "\($0.check.code) \($0.locale ?? "en") \($0.message.contains("apostrophe"))" }.sorted() == ["syntax-error en true", "syntax-error fr true"])
    }

    /// A translation a second file of the folder holds is found there: German's `verification_emoji_dog` sits in
    /// `values-de/strings_sas.xml`, so a German `strings_sas.xml` that drops its argument is reported at that file.
    @Test func aFindingNamesTheFileHoldingTheResource() throws {
        let copy = try FormatCommandTests.scratch().appendingPathComponent("res")
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        try FileManager.default.copyItem(at: Self.res, to: copy)
        try Data("<resources>\n  <string name=\"verification_emoji_dog\">\"Hund\"</string>\n  <string name=\"verification_emoji_cat\">\"Katze\"</string>\n</resources>\n".utf8)
            .write(to: copy.appendingPathComponent("values-de/strings_sas.xml"))
        let input = try #require(try FormatLintInput.detect(path: copy.path))
        let german = Linter(configuration: LintConfiguration()).lint(input).filter { $0.locale == "de" }
        #expect(german.map { "\($0.check.code) \($0.key ?? "") \(($0.file as NSString).lastPathComponent):\($0.position.line)" } == ["extra-key verification_emoji_cat strings_sas.xml:3"])
    }
}
