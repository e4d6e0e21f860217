import Foundation
import Strings
import StableJSON
import Testing
@testable import StringsFormats

/// The ICU ⇄ platform mapping on messages the shipped catalogs do not have.
@Suite(.timeLimit(.minutes(10))) struct MappingTests {
    static let ru = CatalogLocale(LocaleTag("ru")!)
    static let ar = CatalogLocale(LocaleTag("ar")!)

    static func catalog(_ message: String, key: String = "k", translations: [CatalogLocale: String] = [:]) -> CatalogContent {
        CatalogContent(source: [.init(key: key, message: message, description: "d")],
                       translations: translations.mapValues { [.init(key: key, pattern: $0)] })
    }

    static func xcstrings(_ content: CatalogContent) throws -> JSONDocument {
        try JSONReader.readDocument(try StringCatalogFormat().write(content).single!)
    }

    @Test func twoArgumentsArePositionalInTheSourcesOrderInEveryLocale() throws {
        let content = Self.catalog("{name} from {appName}", translations: [Self.ru: "{appName}: {name}"])
        let strings = try Self.xcstrings(content)["strings"]!["k"]!["localizations"]!
        #expect(strings["en"]?["stringUnit"]?["value"]?.stringValue == "%1$@ from %2$@")
        #expect(strings["ru"]?["stringUnit"]?["value"]?.stringValue == "%2$@: %1$@")
        #expect(try StringCatalogFormat().read(try StringCatalogFormat().write(content)) == content)
    }

    @Test func aPluralWithAnotherArgumentBecomesASubstitution() throws {
        let content = Self.catalog("{count, plural, =0 {No messages from {name}} one {# message from {name}} other {# messages from {name}}}",
                                   translations: [Self.ru: "{count, plural, =0 {Нет сообщений от {name}} one {# сообщение от {name}} few {# сообщения от {name}} many {# сообщений от {name}} other {# сообщения от {name}}}"])
        let english = try Self.xcstrings(content)["strings"]!["k"]!["localizations"]!["en"]!
        #expect(english["stringUnit"]?["value"]?.stringValue == "%#@count@")
        let substitution = try #require(english["substitutions"]?["count"])
        #expect(substitution["argNum"]?.intValue == 1)
        #expect(substitution["formatSpecifier"]?.stringValue == "lld")
        #expect(substitution["variations"]?["plural"]?["one"]?["stringUnit"]?["value"]?.stringValue == "%arg message from %2$@")
        #expect(substitution["variations"]?["plural"]?["zero"]?["stringUnit"]?["value"]?.stringValue == "No messages from %2$@")
        #expect(try StringCatalogFormat().read(try StringCatalogFormat().write(content)) == content)
    }

    @Test func twoPluralsAndTextAroundThemAreSubstitutions() throws {
        let content = Self.catalog("Sent {photos, plural, one {# photo} other {# photos}} and {files, plural, one {# file} other {# files}}.")
        let english = try Self.xcstrings(content)["strings"]!["k"]!["localizations"]!["en"]!
        #expect(english["stringUnit"]?["value"]?.stringValue == "Sent %#@photos@ and %#@files@.")
        #expect(english["substitutions"]?["files"]?["argNum"]?.intValue == 2)
        #expect(english["substitutions"]?["files"]?["variations"]?["plural"]?["other"]?["stringUnit"]?["value"]?.stringValue == "%arg files")
        #expect(try StringCatalogFormat().read(try StringCatalogFormat().write(content)) == content)
        #expect(throws: ConversionError.self) { try AndroidResourcesFormat().write(content) }
    }

    @Test func pluralVariationsHaveExactlyTheLocalesCategoriesAndZeroForExactZero() throws {
        let content = try CatalogFixtures.shipped()
        let strings = try Self.xcstrings(content)["strings"]!
        let localizations = try #require(strings["thread.unread"]?["localizations"]?.members)
        #expect(localizations.count == 50)
        for localization in localizations {
            let locale = try #require(CatalogLocale(tag: localization.key))
            let categories = Set(localization.value["variations"]?["plural"]?.members?.map(\.key) ?? [])
            var expected = Set(PluralRules.forLocale(locale.identifier)!.categories.map(\.rawValue))
            expected.insert("zero")  // thread.unread has =0 in English, so every locale has a zero entry
            #expect(categories == expected, "\(locale)")
        }
    }

    @Test func arabicZeroAndExactZeroMustAgree() throws {
        let source = "{n, plural, =0 {none} one {# one} other {# other}}"
        let disagreeing = Self.catalog(source, translations: [Self.ar: "{n, plural, =0 {لا شيء} zero {صفر} one {#} two {#} few {#} many {#} other {#}}"])
        let error = try #require(throws: ConversionError.self) { try StringCatalogFormat().write(disagreeing) }
        #expect(error.problems.first?.key == "k")
        #expect(error.problems.first?.locale == "ar")
        let agreeing = Self.catalog(source, translations: [Self.ar: "{n, plural, =0 {لا شيء} zero {لا شيء} one {#} two {#} few {#} many {#} other {#}}"])
        #expect(try StringCatalogFormat().read(try StringCatalogFormat().write(agreeing)) == agreeing)
        #expect(try AndroidResourcesFormat().read(try AndroidResourcesFormat().write(agreeing)) == agreeing)
    }

    @Test(arguments: [
        ("{n, selectordinal, one {#st} other {#th}}", "selectordinal"),
        ("{n, plural, =1 {just one} other {#}}", "=1"),
        ("{n, plural, offset:1 one {#} other {#}}", "offset"),
        ("Hi {s, select, a {A} other {B}}", "select"),
        ("{n, plural, one {{m, plural, one {#} other {#}}} other {#}}", "nested"),
    ])
    func whatCannotBeExpressedIsRefusedNamingTheKey(message: String, reason: String) throws {
        let error = try #require(throws: ConversionError.self) { try StringCatalogFormat().write(Self.catalog(message, key: "refused.key")) }
        #expect(error.problems.contains { $0.key == "refused.key" && $0.reason.contains(reason) }, "\(error)")
    }

    @Test func aTranslationWithAnArgumentTheSourceLacksIsRefused() throws {
        let error = try #require(throws: ConversionError.self) {
            try StringCatalogFormat().write(Self.catalog("Hi {name}", translations: [Self.ru: "Привет {user}"]))
        }
        #expect(error.problems == [.init(key: "k", locale: "ru", reason: "argument 'user' is not in the source message", kind: .argument)])
    }

    @Test func selectCasesBecomeOneKeyEachAndJoinBack() throws {
        let content = Self.catalog("{status, select, online {Online} other {Offline}}", key: "header.status",
                                   translations: [Self.ru: "{status, select, online {В сети} other {Не в сети}}"])
        let strings = try Self.xcstrings(content)["strings"]!.members!.map(\.key)
        #expect(strings == ["header.status[status=online]", "header.status[status=other]"])
        #expect(try StringCatalogFormat().read(try StringCatalogFormat().write(content)) == content)
        let android = try AndroidResourcesFormat().write(content)
        #expect(String(decoding: android.files["values/strings.xml"]!, as: UTF8.self).contains("name=\"header.status__status__online\""))
        #expect(try AndroidResourcesFormat().read(android) == content)
    }

    @Test func androidCarriesTextAroundAPluralInsideEachItemAndMovesItBackOut() throws {
        let content = Self.catalog("Only {n, plural, one {# day} other {# days}} left, {name}",
                                   translations: [Self.ru: "Осталось {n, plural, one {# день} few {# дня} many {# дней} other {# дня}}, {name}"])
        let files = try AndroidResourcesFormat().write(content)
        let english = String(decoding: try #require(files.files["values/strings.xml"]), as: UTF8.self)
        #expect(english.contains("<item quantity=\"one\">Only %1$d day left, %2$s</item>"))
        #expect(english.contains("[lookd] text around the plural"))
        #expect(try AndroidResourcesFormat().read(files) == content)
        if AndroidCompileTests.aapt2 != nil { #expect(try AndroidCompileTests.compile(files).status == 0) }
    }

    @Test func androidRefusesNamesThatCollideInR() throws {
        let content = CatalogContent(source: [.init(key: "a.b", message: "x"), .init(key: "a_b", message: "y"), .init(key: "9lives", message: "z")])
        let error = try #require(throws: ConversionError.self) { try AndroidResourcesFormat().write(content) }
        #expect(Set(error.problems.compactMap(\.key)) == ["a_b", "9lives"])
    }

    @Test func androidEscapes() throws {
        #expect(AndroidStringEscaping.escape("It's \"x\"") == "It\\'s \\\"x\\\"")
        #expect(AndroidStringEscaping.escape("@home") == "\\@home")
        #expect(AndroidStringEscaping.escape("?a") == "\\?a")
        #expect(AndroidStringEscaping.escape("a@b?") == "a@b?")
        #expect(AndroidStringEscaping.escape("trailing ") == "\"trailing \"")
        #expect(AndroidStringEscaping.escape("line\nbreak") == "line\\nbreak")
        #expect(try AndroidStringEscaping.unescape("  collapsed   spaces  ") == "collapsed spaces")
        #expect(try AndroidStringEscaping.unescape("\"  kept \" \\u0041") == "  kept  A")
    }

    @Test func androidQualifiersAreTheOnesAndroidResolves() {
        let directories = LocaleTag.all.map(CatalogLocale.init).flatMap(AndroidQualifier.directories(for:))
        #expect(directories.count == 52)
        for expected in ["values", "values-b+zh+Hans", "values-b+zh+Hant", "values-zh-rHK", "values-b+es+419", "values-pt-rPT",
                         "values-pt-rBR", "values-fr-rCA", "values-nb", "values-iw", "values-he", "values-in", "values-id"] {
            #expect(directories.contains(expected), "\(expected)")
        }
        #expect(AndroidQualifier.locale(ofDirectory: "values-night") == nil)
    }
}
