import Foundation
import Strings
import StringsLint
import Testing
@testable import StringsFormats

/// `lookd lint` on String Catalogs, Android resources and XLIFF: planted defects found at their place.
@Suite(.timeLimit(.minutes(10))) struct FormatLintTests {
    struct Spot: Hashable, CustomStringConvertible {
        let check: String
        let file: String
        let line: Int
        let locale: String?
        let key: String?

        init(_ check: String, _ file: String, _ line: Int, _ locale: String?, _ key: String?) {
            (self.check, self.file, self.line, self.locale, self.key) = (check, file, line, locale, key)
        }

        init(_ finding: LintFinding, root: String) {
            self.init(finding.check.code, String(finding.file.dropFirst(root.count)), finding.position.line, finding.locale, finding.key)
        }

        var description: String { "\(check) \(file):\(line) \(locale ?? "-") \(key ?? "-")" }
    }

    static func lint(_ path: String) throws -> [LintFinding] {
        let input = try #require(try FormatLintInput.detect(path: path))
        return Linter().lint(input)
    }

    @Test func plantedDefectsInAStringCatalog() throws {
        let path = CatalogFixtures.fixture("Defects.xcstrings").path
        let spots = try Self.lint(path).map { Spot($0, root: path) }
        #expect(spots == [
            Spot("unreachable-plural-category", "", 44, "ja", "inbox.count"),
            Spot("missing-plural-category", "", 62, "ru", "inbox.count"),  // few
            Spot("missing-plural-category", "", 62, "ru", "inbox.count"),  // many
            Spot("missing-key", "", 134, "ja", "files.in.folders"),
            Spot("missing-key", "", 134, "ru", "files.in.folders"),
            Spot("argument-type", "", 188, "de", "greeting"),
            Spot("end-punctuation", "", 200, "ja", "greeting"),
            Spot("translation-state", "", 200, "ja", "greeting"),
            // Device variations are linted per variation; ja and ru lack the string.
            Spot("missing-key", "", 239, "ja", "tap.here (device: mac)"),
            Spot("missing-key", "", 239, "ru", "tap.here (device: mac)"),
            Spot("missing-key", "", 245, "ja", "tap.here (device: other)"),
            Spot("missing-key", "", 245, "ru", "tap.here (device: other)"),
            Spot("translation-state", "", 260, "de", "welcome"),
            Spot("missing-key", "", 266, "ru", "welcome"),
        ], "\(spots)")
    }

    @Test func plantedDefectsInAndroidResources() throws {
        let path = CatalogFixtures.fixture("defects-res").path
        let findings = try Self.lint(path)
        let spots = Set(findings.map { Spot($0, root: path + "/") }.map { "\($0.check) \($0.file) \($0.locale ?? "-") \($0.key ?? "-")" })
        #expect(spots == [
            "argument-type values-de/strings.xml de greeting",
            "syntax-error values-de/strings.xml de welcome",
            "markup-mismatch values-de/strings.xml de tap_hint",
            "missing-plural-category values-ru/strings.xml ru inbox_count",
            "extra-key values-ru/strings.xml ru obsolete",
        ], "\(findings.map { Spot($0, root: path + "/") })")
        // Each finding points at its resource's line.
        #expect(findings.first { $0.key == "greeting" }?.position.line == 3)
        #expect(findings.first { $0.key == "obsolete" }?.position.line == 10)
    }

    @Test func plantedDefectsInAnXLIFF() throws {
        let path = CatalogFixtures.fixture("defects-de.xliff").path
        let spots = try Self.lint(path).map { Spot($0, root: path) }
        #expect(spots == [
            Spot("argument-mismatch", "", 5, "de", "header.team.title"),  // appNme is not the source's
            Spot("argument-mismatch", "", 5, "de", "header.team.title"),  // appName is missing
            Spot("too-long", "", 10, "de", "header.close"),
            Spot("translation-state", "", 14, "de", "welcome.title"),
            Spot("missing-plural-category", "", 18, "de", "thread.photos"),
        ], "\(spots)")
    }

    /// An XLIFF's findings sit at their units, the source's and the target's alike (one place a key for both
    /// locales): a plural read from several units at its first unit, a unit without a target at that unit, a locale
    /// the configuration leaves out at the file's first unit. Worked out by hand: each place is the `>` closing the
    /// unit's start tag, six spaces in; `<trans-unit id="` is 16 characters and `" xml:space="preserve">` 23, so
    /// "greeting" (8) and "farewell" (8) end at column 6 + 16 + 8 + 23 = 53, "%lld files|==|plural.one" (24) at 69.
    @Test func xliffFindingsAreAtTheirUnits() throws {
        let xliff = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
              <file original="Localizable.xcstrings" source-language="en" target-language="ru" datatype="plaintext">
                <body>
                  <trans-unit id="greeting" xml:space="preserve">
                    <source>Hello</source>
                    <target state="translated">Привет</target>
                  </trans-unit>
                  <trans-unit id="%lld files|==|plural.one" xml:space="preserve">
                    <source>%lld file</source>
                    <target state="translated">%lld файл</target>
                  </trans-unit>
                  <trans-unit id="%lld files|==|plural.other" xml:space="preserve">
                    <source>%lld files</source>
                    <target state="translated">%lld файла</target>
                  </trans-unit>
                  <trans-unit id="farewell" xml:space="preserve">
                    <source>Goodbye</source>
                  </trans-unit>
                </body>
              </file>
            </xliff>
            """
        let input = try #require(FormatLintInput(name: "ru.xliff", kind: "xliff", files: FormatFiles(["": Array(xliff.utf8)])))
        func spots(_ findings: [LintFinding]) -> [String] {
            findings.map { "\($0.check.code) \($0.position.line):\($0.position.column) \($0.locale ?? "-") \($0.key ?? "-")" }
        }
        #expect(spots(Linter().lint(input)) == [
            "missing-plural-category 9:69 ru %lld files",  // few
            "missing-plural-category 9:69 ru %lld files",  // many
            "missing-key 17:53 ru farewell",
        ])
        #expect(spots(Linter(configuration: LintConfiguration(locales: ["de"])).lint(input)) == ["file-name 5:53 ru -"])
    }

    /// Xcode's extracted strings: no source localization (the key is the English text), a string not to
    /// translate, and a count that one translation varies by plural and the others show plainly.
    @Test func xcodeExtractedStringsAreLintedInTheirOwnTerms() throws {
        let path = CatalogFixtures.fixture("XcodeExtracted.xcstrings").path
        let findings = try Self.lint(path)
        #expect(findings.map { Spot($0, root: path) } == [
            Spot("missing-plural-category", "", 4, "en", "%lld photos selected"),   // "1 photos selected"
            Spot("missing-decimal-category", "", 24, "fr", "%lld photos selected"),
            Spot("missing-plural-category", "", 24, "fr", "%lld photos selected"),
        ])
        #expect(findings.allSatisfy { $0.message.hasPrefix("\($0.locale ?? "-"): ") })
        let content = try StringCatalogFormat().read(FormatFiles.load(path: path))
        #expect(content.source.map(\.key) == ["%lld photos selected", "Hello, %@", "Settings"])
        #expect(content.sourceEntry("Hello, %@")?.message == "Hello, {arg1}")
    }

    /// An app's own resources: untranslatable strings skipped, `<xliff:g>` read as its text, `formatted="false"`
    /// kept literal, quoted spaces kept, other qualifiers ignored, a string array reported (not misread).
    @Test func anAppsResourcesAreReadInTheirOwnTerms() throws {
        let path = CatalogFixtures.fixture("app-res").path
        let findings = try Self.lint(path)
        #expect(findings.map { "\($0.check.code) \($0.key ?? "-") \($0.position.line)" } == ["unsupported-construct sort_orders 11"])
        let read = AndroidResourceDocument(files: try FormatFiles.load(path: path))
        let (catalog, _) = read.catalogSkippingProblems()
        let content = try catalog.content()
        #expect(content.source.map(\.key) == ["welcome_user", "progress", "quoted", "unread_count"])
        #expect(content.sourceEntry("welcome_user")?.message == "Welcome back, {arg1}!")
        #expect(content.sourceEntry("progress")?.message == "Uploading: 50% done")
        #expect(content.sourceEntry("quoted")?.message == "  Keep these spaces  ")
        #expect(content.sourceEntry("unread_count")?.message == "{arg1, plural, one {# unread message} other {# unread messages}}")
        #expect(content.translations[CatalogLocale(LocaleTag("de")!)]?.count == 4)
    }

    /// Broken files are findings at the place the parser stopped, not crashes or silence.
    @Test func brokenFilesAreFindingsWithTheirPlace() throws {
        let json = try #require(FormatLintInput(name: "L.xcstrings", kind: "xcstrings",
                                                files: FormatFiles(["": Array("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"a\" : [,]\n}".utf8)])))
        let jsonFindings = Linter().lint(json)
        #expect(jsonFindings.map { "\($0.check.code) \($0.file):\($0.position.line)" } == ["syntax-error L.xcstrings:4"])
        let xml = try #require(FormatLintInput(name: "res", kind: "android", files: FormatFiles([
            "values/strings.xml": Array("<resources>\n  <string name=\"a\">A</string>\n</resources>\n".utf8),
            "values-de/strings.xml": Array("<resources>\n  <string name=\"a\">A</strin>\n</resources>\n".utf8),
        ])))
        let xmlFindings = Linter().lint(xml)
        #expect(xmlFindings.map { "\($0.check.code) \($0.file):\($0.position.line) \($0.locale ?? "-")" } == ["syntax-error res/values-de/strings.xml:2 de"])
    }

    /// An export lints exactly like the catalogs it came from.
    @Test(arguments: ["xcstrings", "android", "xliff"])
    func anExportLintsLikeItsCatalogs(format name: String) throws {
        let content = try CatalogFixtures.shipped()
        let locale = CatalogLocale(LocaleTag("de")!)
        let format = try #require(CatalogFormats.named(name, locale: locale.identifier))
        let input = try #require(FormatLintInput(name: "export", kind: name, files: try format.write(content)))
        func summary(_ findings: [LintFinding]) -> [String] {
            findings.map { "\($0.check.code) \($0.locale ?? "-") \($0.key ?? "-")" }.sorted()
        }
        var catalogs = content
        if name == "xliff" { catalogs.translations = [locale: content.translations[locale] ?? []] }
        let expected = try Linter().lint(catalogs.files.map { CatalogInput(name: $0.name, bytes: $0.bytes) })
        #expect(summary(Linter().lint(input)) == summary(expected))
    }

    /// One locale's file or folder of an Android project is linted against the project's English (the res/ folder
    /// above it), and only its findings are reported; a missing key names its locale in the message.
    @Test(arguments: ["values-en-rGB/strings.xml", "values-en-rGB", "values-en-rGB/"])
    func oneLocaleOfAnAndroidProject(relative: String) throws {
        let res = CatalogFixtures.fixture("realworld/locales-res").path
        let findings = try Self.lint(res + "/" + relative)
        // values-en-rGB/strings.xml holds only "greeting"; values/strings.xml has app_name, greeting and episodes.
        #expect(findings.map { Spot($0, root: res) } == [
            Spot("missing-key", "/values-en-rGB/strings.xml", 1, "en-GB", "app_name"),
            Spot("missing-key", "/values-en-rGB/strings.xml", 1, "en-GB", "episodes"),
        ])
        #expect(findings.map(\.message) == ["en-GB: missing key 'app_name'", "en-GB: missing key 'episodes'"])
    }
}
