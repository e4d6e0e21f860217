import Foundation
import Strings
import StringsLint
import Testing
@testable import StringsFormats

/// `lookd lint` on String Catalogs, Android resources and XLIFF: planted defects found at their place.
@Suite struct FormatLintTests {
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
            Spot("unsupported-construct", "", 218, "de", "tap.here"),
            Spot("unsupported-construct", "", 236, "en", "tap.here"),
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
            "unsupported-construct values-de/strings.xml de tap_hint",
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

    /// An export lints exactly like the catalogs it came from.
    @Test(arguments: ["xcstrings", "android", "xliff"])
    func anExportLintsLikeItsCatalogs(format name: String) throws {
        let content = try CatalogFixtures.shipped()
        let locale = LocaleTag("de")!
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
}
