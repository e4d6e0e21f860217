import Foundation
@testable import StringsLint
import Testing

/// `lintConfig` as build scripts and convention plugins write it, read as plain text. Each expected path and base
/// is what Gradle's API documents for the spelling: `Project.file` and `ProjectLayout.projectDirectory` resolve
/// against the project the script or plugin configures (the module), `rootProject`/`rootDir` against the root
/// project; a path computed at configuration time (a variable, a call) cannot be known without running Gradle.
@Suite(.timeLimit(.minutes(2))) struct GradleScriptTests {
    @Test(arguments: [
        // Module build scripts (Kotlin DSL, Groovy, AGP < 7 `lintOptions`).
        ("android {\n    lint {\n        lintConfig = file(\"lint.xml\")\n    }\n}\n", GradleScript.Path.literal("lint.xml", .module)),
        ("android {\n    lintOptions {\n        lintConfig file('config/lint.xml')\n    }\n}\n", .literal("config/lint.xml", .module)),
        ("lint { lintConfig = file(\"lint.xml\"); abortOnError = true; baseline = file(\"baseline.xml\") }\n", .literal("lint.xml", .module)),
        ("lint {\n    lintConfig = file(\"${rootProject.projectDir}/config/lint.xml\")\n}\n", .literal("config/lint.xml", .root)),
        ("lint {\n    lintConfig = file(\"$rootDir/android-lint.xml\")\n}\n", .literal("android-lint.xml", .root)),
        // Convention plugins (precompiled script plugins, `Plugin<Project>` classes, extension functions).
        ("lint {\n    @Suppress(\"UnstableApiUsage\")\n    lintConfig = isolated.rootProject.projectDirectory.file(\"config/lint/lint.xml\").asFile\n}\n", .literal("config/lint/lint.xml", .root)),
        ("private fun Lint.configure(project: Project) {\n    lintConfig = project.rootProject.file(\"gradle/lint.xml\")\n}\n", .literal("gradle/lint.xml", .root)),
        ("lint {\n    lintConfig = project.rootProject\n        .file(\"config/lint/lint.xml\")\n}\n", .literal("config/lint/lint.xml", .root)),
        ("defaultConfig.vectorDrawables.useSupportLibrary = true\nlintOptions.lintConfig = project.rootProject.file(\"analysis/lint/lint.xml\")\n", .literal("analysis/lint/lint.xml", .root)),
        ("if (lintConfig == null) {\n    lintConfig = project.rootProject.file(\"buildSrc/lint.xml\")\n}\n", .literal("buildSrc/lint.xml", .root)),
        ("lint {\n    lintConfig = layout.projectDirectory.file(\"lint.xml\").asFile\n}\n", .literal("lint.xml", .module)),
        ("lint {\n    lintConfig = project.file(\"lint.xml\")\n}\n", .literal("lint.xml", .module)),
        ("lint {\n    lintConfig = File(rootDir, \"quality/lint.xml\")\n}\n", .literal("quality/lint.xml", .root)),
        ("lintOptions {\n    lintConfig new File(projectDir, 'lint.xml')\n}\n", .literal("lint.xml", .module)),
        ("lint {\n    lintConfig = rootDir.resolve(\"lint.xml\")\n}\n", .literal("lint.xml", .root)),
        // element-x-android's `plugins/src/main/kotlin/extension/CommonExtension.kt`.
        ("fun Project.defaultLintOptions(lint: Lint) = lint.apply {\n    lintConfig = File(\"${project.rootDir}/tools/lint/lint.xml\")\n}\n", .literal("tools/lint/lint.xml", .root)),
        // Computed: not read.
        ("val lintXml = rootProject.file(\"lint.xml\")\nlint {\n    lintConfig = lintXml\n}\n", .unreadable),
        ("lint {\n    lintConfig = rootProject.file(lintConfigPath)\n}\n", .unreadable),
        ("lint {\n    lintConfig = file(\"$configDir/lint.xml\")\n}\n", .unreadable),
        ("lint {\n    lintConfig = File(\"../lint.xml\")\n}\n", .unreadable),
        // The last setting wins, comments are skipped.
        ("lint {\n    lintConfig = file(\"first.xml\")\n    lintConfig = rootProject.file(\"second.xml\")\n}\n", .literal("second.xml", .root)),
        ("lint {\n    lintConfig = file(\"kept.xml\") // lintConfig = file(\"comment.xml\")\n    /* lintConfig = file(\"block.xml\")\n       lintConfig = file(\"block2.xml\") */\n}\n", .literal("kept.xml", .module)),
    ] as [(String, GradleScript.Path)])
    func aSpellingIsRead(script: String, expected: GradleScript.Path) {
        #expect(GradleScript(script).lintConfig == expected, "\(script)")
    }

    @Test func scriptsWithoutASettingSetNone() {
        for script in ["", "android {\n    lint {\n        abortOnError = false\n    }\n}\n",
                       "/*lint {\n    lintConfig = file(\"${rootDir}/config/filters/lint.xml\")\n}*/\n",
                       "// lintConfig = file(\"lint.xml\")\n", "val myLintConfig = file(\"lint.xml\")\n",
                       "println(\"lintConfig = file('lint.xml')\")\n", "if (lintConfig != null) println(lintConfig)\n"] {
            #expect(GradleScript(script).lintConfig == nil, "\(script)")
        }
    }

    /// `apply from:` in its Groovy and Kotlin DSL spellings; a relative path is the applying project's.
    @Test func appliedScriptsAreListed() {
        let script = """
            apply plugin: 'com.android.library'
            apply from: "$rootDir/gradle/android-lint.gradle"
            apply from: rootProject.file('gradle/quality.gradle')
            apply(from = "lint-module.gradle.kts")
            apply from: resolveScript()

            """
        #expect(GradleScript(script).appliedScripts == [.literal("gradle/android-lint.gradle", .root), .literal("gradle/quality.gradle", .root),
                                                       .literal("lint-module.gradle.kts", .module), .unreadable])
    }

    /// The root script's `subprojects { }` and `allprojects { }` bodies, in the order written, braces in strings and
    /// nested blocks kept inside.
    @Test func subprojectBlocksAreCut() {
        let script = """
            allprojects {
                repositories { google() }
            }
            subprojects {
                afterEvaluate {
                    android { lintOptions { lintConfig file("${rootDir}/quality/lint.xml") } }
                }
            }
            tasks.register("clean") { delete(rootProject.layout.buildDirectory) }

            """
        let blocks = GradleScript(script).subprojectBlocks
        #expect(blocks.count == 2)
        #expect(blocks.map(\.lintConfig) == [nil, .literal("quality/lint.xml", .root)])
    }

    /// Android lint's DSL severities in a `lint { }`/`lintOptions { }` block, in each spelling of the AGP reference
    /// (`disable += [...]`, Groovy `disable 'A', 'B'`) and of real scripts (`disable.add(…)`, `disable.addAll(listOf(…))`,
    /// element-x-android's `error.add(…)` in `lint.apply { }`); `abortOnError`, `warningsAsErrors` and
    /// `ignoreWarnings` are not severities, and a `disable` outside a lint block is not lint's.
    @Test func lintSeveritiesAreRead() {
        let groovy = """
            android {
                lintOptions {
                    abortOnError false
                    disable 'MissingTranslation', 'ExtraTranslation'
                    warning "MissingQuantity"
                }
            }
            tasks.named('x') { disable 'Unrelated' }

            """
        #expect(GradleScript(groovy).lintSeverities.map { "\($0.id) \($0.severity)" } == ["MissingTranslation ignore", "ExtraTranslation ignore", "MissingQuantity warning"])
        let kotlin = """
            android {
                lint {
                    warningsAsErrors = true
                    ignoreWarnings = false
                    disable += setOf("InvalidPackage", "MissingTranslation")
                    disable.add("UnusedQuantity")
                    disable.addAll(
                        listOf(
                            "GradleDependency",
                        )
                    )
                    // disable += "StringFormatCount"
                    fatal += "StringFormatMatches"
                }
            }
            fun Project.defaultLintOptions(lint: Lint) = lint.apply {
                error.add("ComposableLambdaParameterPosition")
                informational("StringFormatCount")
            }

            """
        #expect(GradleScript(kotlin).lintSeverities.map { "\($0.id) \($0.severity)" } == [
            "InvalidPackage ignore", "MissingTranslation ignore", "UnusedQuantity ignore", "GradleDependency ignore",
            "StringFormatMatches fatal", "ComposableLambdaParameterPosition error", "StringFormatCount informational",
        ])
    }

    @Test func includedBuildsAreListed() {
        let settings = """
            pluginManagement {
                includeBuild("build-logic")
                repositories { gradlePluginPortal() }
            }
            // includeBuild("old-logic")
            includeBuild 'tools/plugins'
            includeBuild("components") {
                dependencySubstitution { }
            }
            includeBuild(someFolder)

            """
        #expect(GradleScript(settings).includedBuilds == ["build-logic", "tools/plugins", "components"])
    }
}
