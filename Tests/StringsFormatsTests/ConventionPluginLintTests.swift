import Foundation
import Strings
import StringsLint
import Testing
@testable import StringsFormats

/// The `lint.xml` Android lint gets from `lintConfig` when a module's own build script does not set it: the
/// project's shared build logic (convention plugins in `buildSrc/`, `build-logic/`, `build-plugin/` or another
/// included build), script plugins applied with `apply from:`, the root script's `subprojects { }`. Gradle applies
/// a module's `plugins { }` before the rest of its script, and evaluates the root script's `subprojects { }`
/// before either, so a later setting overrides an earlier one: the module's own, then its plugins, then the root's.
@Suite(.timeLimit(.minutes(10))) struct ConventionPluginLintTests {
    /// thunderbird-android's arrangement (`realworld/convention-plugin-project`, hand-written; Tests/StringsFormatsTests/Fixtures/realworld/SOURCES.md): the app
    /// and a feature module apply precompiled script plugins of the included build `build-plugin/`, which set
    /// `lintConfig = isolated.rootProject.projectDirectory.file("config/lint/lint.xml").asFile`; that file keeps
    /// `MissingTranslation` at `warning` and `ExtraTranslation` at `error`. The included build `components/` is its
    /// own root project (its `settings.gradle.kts`), without a `config/lint/lint.xml`: its module keeps the defaults.
    /// By hand: app German lacks `archive` (warning), app French adds `spam` (error), the feature's German lacks
    /// `account_email` (warning), components' German lacks `button_cancel` (error, the default).
    @Test func thunderbirdsConventionPluginSettingIsRead() throws {
        let project = CatalogFixtures.fixture("realworld/convention-plugin-project")
        let run = try FormatCommandTests.lookd("lint", project.path, "--format", "json")
        #expect(run.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        let root = project.path + "/"
        #expect(findings.map { "\($0["check"] ?? "") \($0["severity"] ?? "") \(String(("\($0["file"] ?? "")").dropFirst(root.count))) \($0["key"] ?? "")" } == [
            "missing-key warning app-mail/src/main/res/values-de/strings.xml archive",
            "extra-key error app-mail/src/main/res/values-fr/strings.xml spam",
            "missing-key error components/ui/bolt/src/commonMain/composeResources/values-de/strings.xml button_cancel",
            "missing-key warning feature/account/src/main/res/values-de/strings.xml account_email",
        ])
    }

    /// One lint.xml per severity: `warning.xml` is the one each case must pick (French's missing `archive` becomes
    /// a warning), `ignore.xml` a decoy (no finding), and neither read leaves the default error.
    static let warning = "<lint>\n    <issue id=\"MissingTranslation\" severity=\"warning\" />\n</lint>\n"
    static let ignore = "<lint>\n    <issue id=\"MissingTranslation\" severity=\"ignore\" />\n</lint>\n"

    /// The severity of French's missing `archive` in a project made of `files` plus `app/src/main/res`.
    static func missingKeySeverity(_ files: [String: String]) throws -> String {
        let project = try FormatCommandTests.scratch()
        defer { try? FileManager.default.removeItem(at: project) }
        var all = files
        all["app/src/main/res/values/strings.xml"] = "<resources>\n    <string name=\"inbox\">Inbox</string>\n    <string name=\"archive\">Archive</string>\n</resources>\n"
        all["app/src/main/res/values-fr/strings.xml"] = "<resources>\n    <string name=\"inbox\">Boîte</string>\n</resources>\n"
        for (path, text) in all {
            let target = project.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: target)
        }
        let input = try #require(try FormatLintInput.detect(path: project.appendingPathComponent("app/src/main/res").path))
        let found = Linter(configuration: LintConfiguration()).lint(input).map { "\($0.check.code) \($0.locale ?? "") \($0.severity.rawValue)" }
        guard let first = found.first else { return "none" }
        #expect(found.count == 1 && first.hasPrefix("missing-key fr "), "\(found)")
        return String(first.dropFirst("missing-key fr ".count))
    }

    static let settings = "rootProject.name = \"mailer\"\ninclude(\":app\")\n"
    static let kotlinDSL = "plugins {\n    `kotlin-dsl`\n}\n"
    static let appScript = "plugins {\n    id(\"mailer.android.application\")\n}\n"

    /// A `Plugin<Project>` class in nowinandroid's layout (`build-logic/convention/`, the build named by
    /// `includeBuild`): `rootProject.file(…)` is the root project's folder, not the plugin's or the module's.
    @Test func aPluginClassInBuildLogicConventionResolvesAgainstTheRoot() throws {
        let plugin = """
            class AndroidApplicationConventionPlugin : Plugin<Project> {
                override fun apply(target: Project) {
                    with(target) {
                        extensions.configure<ApplicationExtension> {
                            lint {
                                lintConfig = rootProject.file("config/lint.xml")
                            }
                        }
                    }
                }
            }

            """
        #expect(try Self.missingKeySeverity([
            "settings.gradle.kts": "pluginManagement {\n    includeBuild(\"build-logic\")\n}\n" + Self.settings,
            "build-logic/settings.gradle.kts": "rootProject.name = \"build-logic\"\ninclude(\":convention\")\n",
            "build-logic/convention/build.gradle.kts": Self.kotlinDSL,
            "build-logic/convention/src/main/kotlin/AndroidApplicationConventionPlugin.kt": plugin,
            "app/build.gradle.kts": Self.appScript,
            "config/lint.xml": Self.warning,
            "app/config/lint.xml": Self.ignore,
            "build-logic/convention/config/lint.xml": Self.ignore,
        ]) == "warning")
    }

    /// `file(…)` in a plugin is the folder of the project applying it: the module.
    @Test func fileInAPluginIsTheModulesFolder() throws {
        #expect(try Self.missingKeySeverity([
            "settings.gradle.kts": Self.settings,
            "buildSrc/src/main/kotlin/mailer.android.application.gradle.kts": "android {\n    lint {\n        lintConfig = file(\"lint-fallback.xml\")\n    }\n}\n",
            "app/build.gradle.kts": Self.appScript,
            "app/lint-fallback.xml": Self.warning,
            "lint-fallback.xml": Self.ignore,
            "buildSrc/lint-fallback.xml": Self.ignore,
        ]) == "warning")
    }

    /// The module's own setting, written in its script or in a script plugin it applies, wins over a plugin's.
    @Test func theModulesOwnSettingWins() throws {
        let plugin = "android {\n    lint {\n        lintConfig = rootProject.file(\"shared.xml\")\n    }\n}\n"
        #expect(try Self.missingKeySeverity([
            "settings.gradle.kts": Self.settings,
            "buildSrc/src/main/kotlin/mailer.android.application.gradle.kts": plugin,
            "app/build.gradle.kts": Self.appScript + "android {\n    lint {\n        lintConfig = file(\"own.xml\")\n    }\n}\n",
            "app/own.xml": Self.warning,
            "shared.xml": Self.ignore,
        ]) == "warning")
        #expect(try Self.missingKeySeverity([
            "settings.gradle": "include ':app'\n",
            "buildSrc/src/main/kotlin/mailer.android.application.gradle.kts": plugin,
            "app/build.gradle": "plugins {\n    id 'mailer.android.application'\n}\napply from: \"$rootDir/gradle/android-lint.gradle\"\n",
            "gradle/android-lint.gradle": "android {\n    lintOptions {\n        lintConfig rootProject.file('gradle/lint.xml')\n    }\n}\n",
            "gradle/lint.xml": Self.warning,
            "shared.xml": Self.ignore,
        ]) == "warning")
    }

    /// `buildSrc/` comes first, then the builds `settings.gradle(.kts)` includes in its order (`gradle/plugins`
    /// here), then `build-logic/` and `build-plugin/` when not named; an included build that makes no plugins (a
    /// library build whose own module sets `lintConfig` for itself) is not build logic.
    @Test func buildLogicIsReadInTheDocumentedOrder() throws {
        let setting = { (path: String) in "android {\n    lint {\n        lintConfig = rootProject.file(\"\(path)\")\n    }\n}\n" }
        #expect(try Self.missingKeySeverity([
            "settings.gradle.kts": "pluginManagement {\n    includeBuild(\"build-logic\")\n}\n" + Self.settings,
            "buildSrc/src/main/kotlin/Lint.kt": setting("warning.xml"),
            "build-logic/build.gradle.kts": Self.kotlinDSL,
            "build-logic/src/main/kotlin/mailer.android.application.gradle.kts": setting("ignore.xml"),
            "app/build.gradle.kts": Self.appScript,
            "warning.xml": Self.warning, "ignore.xml": Self.ignore,
        ]) == "warning")
        #expect(try Self.missingKeySeverity([
            "settings.gradle.kts": "includeBuild(\"libraries\")\nincludeBuild(\"gradle/plugins\")\n" + Self.settings,
            "libraries/core/build.gradle.kts": "android {\n    lint {\n        lintConfig = rootProject.file(\"ignore.xml\")\n    }\n}\n",
            "libraries/core/src/main/kotlin/Core.kt": setting("ignore.xml"),
            "gradle/plugins/build.gradle.kts": Self.kotlinDSL,
            "gradle/plugins/src/main/kotlin/mailer.android.application.gradle.kts": setting("warning.xml"),
            "build-plugin/build.gradle.kts": Self.kotlinDSL,
            "build-plugin/src/main/kotlin/Other.kt": setting("ignore.xml"),
            "app/build.gradle.kts": Self.appScript,
            "warning.xml": Self.warning, "ignore.xml": Self.ignore,
        ]) == "warning")
    }

    /// The root build script's `subprojects { }` (Groovy, inside `afterEvaluate`) is read when nothing closer sets
    /// `lintConfig`, and a convention plugin's setting overrides it (Gradle applies the plugin later).
    @Test func theRootScriptsSubprojectsBlockComesLast() throws {
        let root = "subprojects {\n    afterEvaluate {\n        android {\n            lintOptions {\n                lintConfig file(\"${rootDir}/quality/lint.xml\")\n            }\n        }\n    }\n}\n"
        #expect(try Self.missingKeySeverity([
            "settings.gradle": "include ':app'\n",
            "build.gradle": root,
            "app/build.gradle": "apply plugin: 'com.android.application'\n",
            "quality/lint.xml": Self.warning,
        ]) == "warning")
        #expect(try Self.missingKeySeverity([
            "settings.gradle": "include ':app'\n",
            "build.gradle": "allprojects {\n    apply from: \"$rootDir/gradle/lint.gradle\"\n}\n",
            "gradle/lint.gradle": "android {\n    lintOptions {\n        lintConfig file(\"$rootDir/quality/lint.xml\")\n    }\n}\n",
            "app/build.gradle": "apply plugin: 'com.android.application'\n",
            "quality/lint.xml": Self.warning,
        ]) == "warning")
        #expect(try Self.missingKeySeverity([
            "settings.gradle": "include ':app'\n",
            "build.gradle": root.replacingOccurrences(of: "quality/lint.xml", with: "ignore.xml"),
            "buildSrc/src/main/groovy/mailer.android.application.gradle": "android {\n    lintOptions {\n        lintConfig rootProject.file('quality/lint.xml')\n    }\n}\n",
            "app/build.gradle": "plugins {\n    id 'mailer.android.application'\n}\n",
            "quality/lint.xml": Self.warning, "ignore.xml": Self.ignore,
        ]) == "warning")
    }

    /// Android lint's Gradle DSL turns issues off or sets their severity over every `lint.xml` ("This overrides the
    /// XML configuration"): `disable 'MissingTranslation'` in the module's Groovy `lintOptions` (the common answer
    /// to "is not translated" errors), `warning += "MissingTranslation"` in a convention plugin over a `lint.xml`
    /// saying `error`, and the module's own `error` over the plugin's `warning` (Gradle runs the module's script last).
    @Test func gradleDSLSeveritiesOverrideLintXML() throws {
        #expect(try Self.missingKeySeverity([
            "settings.gradle": "include ':app'\n",
            "app/build.gradle": "android {\n    lintOptions {\n        abortOnError false\n        disable 'MissingTranslation'\n    }\n}\n",
        ]) == "none")
        let plugin = "android {\n    lint {\n        lintConfig = rootProject.file(\"config/lint.xml\")\n        warning += \"MissingTranslation\"\n    }\n}\n"
        let strict = "<lint>\n    <issue id=\"MissingTranslation\" severity=\"error\" />\n</lint>\n"
        #expect(try Self.missingKeySeverity([
            "settings.gradle.kts": Self.settings,
            "buildSrc/src/main/kotlin/mailer.android.application.gradle.kts": plugin,
            "app/build.gradle.kts": Self.appScript,
            "config/lint.xml": strict, "app/lint.xml": strict,
        ]) == "warning")
        #expect(try Self.missingKeySeverity([
            "settings.gradle.kts": Self.settings,
            "buildSrc/src/main/kotlin/mailer.android.application.gradle.kts": plugin,
            "app/build.gradle.kts": Self.appScript + "android {\n    lint {\n        error.add(\"MissingTranslation\")\n    }\n}\n",
            "config/lint.xml": Self.ignore,
        ]) == "error")
    }

    /// A computed path in the setting that applies is not read (Gradle would have to run), and the settings Gradle
    /// overrides with it are not used instead; a commented-out setting is no setting; a setting under
    /// `if (lintConfig == null)` split over two lines is read.
    @Test func computedAndCommentedSettings() throws {
        #expect(try Self.missingKeySeverity([
            "settings.gradle.kts": Self.settings,
            "build.gradle.kts": "subprojects {\n    lintConfig = rootProject.file(\"ignore.xml\")\n}\n",
            "buildSrc/src/main/kotlin/Lint.kt": "fun Lint.configure(project: Project) {\n    lintConfig = project.rootProject.file(lintConfigPath)\n}\n",
            "app/build.gradle.kts": Self.appScript,
            "ignore.xml": Self.ignore,
        ]) == "error")
        let plugin = """
            fun Lint.configure(project: Project) {
                /* lintConfig = project.rootProject.file("ignore.xml") */
                // lintConfig = project.rootProject.file("ignore.xml")
                if (lintConfig == null) {
                    lintConfig = project.rootProject
                        .file("config/warning.xml")
                }
            }

            """
        #expect(try Self.missingKeySeverity([
            "settings.gradle.kts": Self.settings,
            "buildSrc/src/main/kotlin/Lint.kt": plugin,
            "app/build.gradle.kts": Self.appScript,
            "config/warning.xml": Self.warning, "ignore.xml": Self.ignore,
        ]) == "warning")
    }
}
