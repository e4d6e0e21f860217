import Foundation
import Strings
import StringsLint
import Testing
@testable import StringsFormats

/// `lookd lint` given a project folder above its catalogs (`lookd lint app/`, a project's root): every Android
/// res/ folder below it is linted, build output is not; and baselines of Android trees keep each locale apart.
@Suite(.timeLimit(.minutes(10))) struct ProjectLintTests {
    /// A copy of `realworld/modules-project` (an app with a flavour, a feature module and a Compose Multiplatform
    /// module) with the app's res/ also copied where build tools and package managers put files: those copies
    /// must never be linted.
    static func project() throws -> URL {
        let folder = try FormatCommandTests.scratch().appendingPathComponent("project")
        let manager = FileManager.default
        try manager.copyItem(at: CatalogFixtures.fixture("realworld/modules-project"), to: folder)
        let res = folder.appendingPathComponent("app/src/main/res")
        for skipped in ["app/build/intermediates/merged_res/debug", "node_modules/some-package/android/src/main/res",
                        ".gradle/cache/res", "feature/compose/build/res"] {
            let target = folder.appendingPathComponent(skipped)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: res, to: target)
        }
        return folder
    }

    @Test func everyResourceFolderBelowAProjectIsFoundAndBuildOutputIsNot() throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
        // An iOS app beside the Android one: its String Catalog is found, Xcode's and CocoaPods' copies are not.
        let catalog = CatalogFixtures.fixture("realworld/Locales.xcstrings")
        for place in ["ios/App/Localizable.xcstrings", "ios/DerivedData/App/Localizable.xcstrings", "ios/Pods/Kit/Kit.xcstrings"] {
            let target = project.appendingPathComponent(place)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: catalog, to: target)
        }
        let found = ProjectSearch.lintableInputs(under: project.path).map { String($0.dropFirst(project.path.count)) }
        #expect(found == ["/app/src/beta/res", "/app/src/main/res", "/feature/compose/src/main/res",
                          "/ios/App/Localizable.xcstrings", "/shared/src/commonMain/composeResources"])
    }

    /// The findings, worked out by hand from the fixture's files: German passes `unread`'s integer `%d` as text
    /// (`%s`), French lacks `unread`, the compose module's German lacks `discard`; `app_name` is
    /// `translatable="false"`, the beta flavour and the Compose module are complete.
    @Test func aProjectFolderIsLintedResFolderByResFolder() throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
        for path in [project.path, project.path + "/"] {
            let run = try FormatCommandTests.lookd("lint", path, "--format", "json")
            #expect(run.status == 1)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            let findings = try #require(document["findings"] as? [[String: Any]])
            let root = project.path + "/"
            let spots = findings.map { finding in
                ["\(finding["check"] ?? "")", String(("\(finding["file"] ?? "")").dropFirst(root.count)), "\(finding["locale"] ?? "")", "\(finding["key"] ?? "")"]
            }
            #expect(spots == [
                ["argument-type", "app/src/main/res/values-de/strings.xml", "de", "unread"],
                ["missing-key", "app/src/main/res/values-fr/strings.xml", "fr", "unread"],
                ["missing-key", "feature/compose/src/main/res/values-de/strings.xml", "de", "discard"],
            ])
            // The four res/ folders' strings.xml files, not the copies in build output.
            #expect((document["summary"] as? [String: Any])?["files"] as? Int == 8)
        }
    }

    /// Android lint's own severities in the project's lint.xml (thunderbird-android keeps `MissingTranslation` at
    /// `warning`): the app's French missing `unread` is a warning, German's `%s` for `%d` stays an error (its issue,
    /// `StringFormatMatches`, is not listed); lookd-lint.json's settings win over lint.xml.
    @Test func lintXMLSeveritiesAreTheChecksDefaults() throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <lint>
                <issue id="MissingTranslation" severity="warning" />
                <issue id="HardcodedText" severity="error" />
            </lint>

            """.utf8).write(to: project.appendingPathComponent("app/lint.xml"))
        let res = project.appendingPathComponent("app/src/main/res").path
        let input = try #require(try FormatLintInput.detect(path: res))
        func severities(_ configuration: LintConfiguration) -> [String] {
            Linter(configuration: configuration).lint(input).map { "\($0.check.code) \($0.locale ?? "") \($0.severity.rawValue)" }
        }
        #expect(severities(LintConfiguration()) == ["argument-type de error", "missing-key fr warning"])
        #expect(severities(LintConfiguration(checks: [.missingKey: .error])) == ["argument-type de error", "missing-key fr error"])
    }

    /// A `lint.xml` the module's Gradle build points at (`lintConfig`, "fallback lint configuration (default
    /// severities, etc.)" in the Android Gradle plugin's DSL; thunderbird-android keeps it in `config/lint/`):
    /// read like a `lint.xml` above res/, in each spelling projects use — Kotlin DSL `lintConfig = file(…)` relative
    /// to the module, Groovy `lintOptions { lintConfig file("${project.rootDir}/…") }`, `rootProject.file(…)`.
    @Test func theLintXMLGradleNamesIsRead() throws {
        let config = """
            <?xml version="1.0" encoding="UTF-8"?>
            <lint>
                <issue id="MissingTranslation" severity="warning" />
            </lint>

            """
        let scripts: [(file: String, script: String, lintXML: String)] = [
            ("app/build.gradle.kts", "android {\n    lint {\n        lintConfig = file(\"config/lint/lint.xml\")\n    }\n}\n", "app/config/lint/lint.xml"),
            ("app/build.gradle", "android {\n    lintOptions {\n        abortOnError false\n        lintConfig file(\"${project.rootDir}/config/lint/lint.xml\")\n    }\n}\n", "config/lint/lint.xml"),
            ("app/build.gradle.kts", "android {\n    lint {\n        // lintConfig = file(\"elsewhere.xml\")\n        lintConfig = rootProject.file(\"config/lint/lint.xml\")\n    }\n}\n", "config/lint/lint.xml"),
        ]
        for (file, script, lintXML) in scripts {
            let project = try Self.project()
            defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
            try Data("include(\":app\")\n".utf8).write(to: project.appendingPathComponent("settings.gradle.kts"))
            try Data(script.utf8).write(to: project.appendingPathComponent(file))
            let target = project.appendingPathComponent(lintXML)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(config.utf8).write(to: target)
            let input = try #require(try FormatLintInput.detect(path: project.appendingPathComponent("app/src/main/res").path))
            let found = Linter(configuration: LintConfiguration()).lint(input).map { "\($0.check.code) \($0.locale ?? "") \($0.severity.rawValue)" }
            #expect(found == ["argument-type de error", "missing-key fr warning"], "\(file): \(script)")
        }
    }

    /// Gradle's `lintConfig` is the fallback: the project's own `lint.xml` above res/ wins for the issues it sets,
    /// and the fallback still gives the others (here `StringFormatMatches` ignored: German's `%s` for `%d` is not reported).
    @Test func theNearestLintXMLWinsOverGradlesFallback() throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
        try Data("android {\n    lint {\n        lintConfig = file(\"lint-default.xml\")\n    }\n}\n".utf8)
            .write(to: project.appendingPathComponent("app/build.gradle.kts"))
        try Data("""
            <lint>
                <issue id="MissingTranslation" severity="warning" />
                <issue id="StringFormatMatches" severity="ignore" />
            </lint>

            """.utf8).write(to: project.appendingPathComponent("app/lint-default.xml"))
        try Data("<lint>\n    <issue id=\"MissingTranslation\" severity=\"fatal\" />\n</lint>\n".utf8)
            .write(to: project.appendingPathComponent("app/lint.xml"))
        let input = try #require(try FormatLintInput.detect(path: project.appendingPathComponent("app/src/main/res").path))
        #expect(Linter(configuration: LintConfiguration()).lint(input).map { "\($0.check.code) \($0.locale ?? "") \($0.severity.rawValue)" }
            == ["missing-key fr error"])
    }

    /// A flavour's res/ holding translations only (tuskyapp/Tusky's `app/src/green/res` has `values/` without
    /// `strings.xml`): found in the project and linted against main's English. Android merges the flavour's
    /// `values-de/strings.xml` over main's, so a string the flavour's file lacks is missing only when main's file of
    /// that locale lacks it too. By hand: German passes `unread`'s `%d` as `%s`; French has no `unread` in either
    /// file; Spanish (no main file) lacks `unread` and adds `archive`, which English does not have.
    @Test func aFlavourHoldingOnlyTranslationsIsLintedAgainstMainsEnglish() throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
        let green = project.appendingPathComponent("app/src/green/res")
        let files = [
            "values-de/strings.xml": "<string name=\"unread\">%s ungelesen</string>",
            "values-fr/strings.xml": "<string name=\"inbox\">Boîte</string>",
            "values-es/strings.xml": "<string name=\"inbox\">Bandeja de entrada</string>\n    <string name=\"archive\">Archivar</string>",
            "values/flavor-colors.xml": "<color name=\"tusky_blue\">#2b90d9</color>",
        ]
        for (path, body) in files {
            let target = green.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n    \(body)\n</resources>\n".utf8).write(to: target)
        }
        #expect(ProjectSearch.lintableInputs(under: project.path).contains(green.path))
        let input = try #require(try FormatLintInput.detect(path: green.path))
        #expect(input.fileCount == 3)
        let found = Linter(configuration: LintConfiguration()).lint(input).map {
            [$0.check.code, String($0.file.dropFirst(green.path.count + 1)), $0.locale ?? "", $0.key ?? ""]
        }
        #expect(Set(found) == [
            ["argument-type", "values-de/strings.xml", "de", "unread"],
            ["missing-key", "values-fr/strings.xml", "fr", "unread"],
            ["missing-key", "values-es/strings.xml", "es", "unread"],
            ["extra-key", "values-es/strings.xml", "es", "archive"],
        ])
        #expect(found.count == 4)
        // One locale of the flavour given as the PATH: its findings only.
        let spanish = try #require(try FormatLintInput.detect(path: green.appendingPathComponent("values-es/strings.xml").path))
        #expect(Set(Linter(configuration: LintConfiguration()).lint(spanish).map { [$0.check.code, $0.locale ?? "", $0.key ?? ""] })
            == [["missing-key", "es", "unread"], ["extra-key", "es", "archive"]])
    }

    @Test func aFolderWithNothingToLintIsAUsageError() throws {
        let folder = try FormatCommandTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("# notes\n".utf8).write(to: folder.appendingPathComponent("README.md"))
        // Only build output below it: still nothing to lint.
        let build = folder.appendingPathComponent("app/build/res")
        try FileManager.default.createDirectory(at: build.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CatalogFixtures.fixture("realworld/modules-project/app/src/main/res"), to: build)
        let run = try FormatCommandTests.lookd("lint", folder.path)
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
    }

    /// A baseline recorded while German lacked `discard` does not accept French lacking it once German is fixed:
    /// every Android locale's file is `strings.xml`, so the fingerprint names the locale.
    @Test func aBaselineEntryOfOneLocaleDoesNotAcceptAnother() throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
        let res = project.appendingPathComponent("feature/compose/src/main/res")
        let before = try FormatLintTests.lint(res.path)
        #expect(before.map { [$0.check.code, $0.locale ?? "", $0.key ?? ""] } == [["missing-key", "de", "discard"]])
        let baseline = Baseline(findings: before)

        try Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <resources>
                <string name="send">Senden</string>
                <string name="discard">Entwurf verwerfen</string>
            </resources>

            """.utf8).write(to: res.appendingPathComponent("values-de/strings.xml"))
        try FileManager.default.createDirectory(at: res.appendingPathComponent("values-fr"), withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <resources>
                <string name="send">Envoyer</string>
            </resources>

            """.utf8).write(to: res.appendingPathComponent("values-fr/strings.xml"))
        let after = try FormatLintTests.lint(res.path)
        #expect(after.map { [$0.check.code, $0.locale ?? "", $0.key ?? ""] } == [["missing-key", "fr", "discard"]])
        let split = baseline.apply(to: after)
        #expect(split.reported.map { [$0.locale ?? "", $0.key ?? ""] } == [["fr", "discard"]])
        #expect(split.suppressed.isEmpty)
        // The same finding again is accepted: the fingerprint has no line or column.
        #expect(baseline.apply(to: before).suppressed.count == 1)
    }

    /// One String Catalog holds every locale: a baseline entry for German's missing localization does not accept
    /// French's. lookd's own catalogs keep their fingerprint (`ru.json` names its locale).
    @Test func stringCatalogAndLookdCatalogFingerprints() {
        func finding(_ file: String, _ locale: String) -> LintFinding {
            LintFinding(check: .missingKey, severity: .error, file: file, position: .start, locale: locale, key: "inbox", message: "")
        }
        #expect(finding("App/Localizable.xcstrings", "de").fingerprint == "missing-key|Localizable.xcstrings@de|inbox|")
        #expect(finding("App/Localizable.xcstrings", "de").fingerprint != finding("App/Localizable.xcstrings", "fr").fingerprint)
        #expect(finding("Resources/Localizations/ru.json", "ru").fingerprint == "missing-key|ru.json|inbox|")
        #expect(finding("de.xcloc/Localized Contents/de.xliff", "de").fingerprint == "missing-key|de.xliff|inbox|")
        #expect(finding("res/values-zh-rCN/strings.xml", "zh-CN").fingerprint == "missing-key|strings.xml@zh-CN|inbox|")
    }
}
