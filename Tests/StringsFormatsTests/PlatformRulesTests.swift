import Foundation
import Strings
import StringsLint
import Testing
@testable import StringsFormats

/// Each platform's own format rules on the patterns real projects ship (Tests/StringsFormatsTests/Fixtures/realworld/SOURCES.md): Xcode's
/// XLIFF exports with printf placeholders, Java `Formatter` specifiers in Android strings.
@Suite(.timeLimit(.minutes(10))) struct PlatformRulesTests {
    static func spots(_ path: String) throws -> [String] {
        let findings = Linter().lint(try #require(try FormatLintInput.detect(path: path)))
        return findings.map { "\($0.check.code) \($0.locale ?? "-") \($0.key ?? "-")" }.sorted()
    }

    @Test(arguments: [
        // Two <file>s, one `Cancel` each; the second is keyed by its file. `%1$03d`, `%.1f`, `%%` and the lone `%` of a
        // string without arguments are fine; a dropped `%@` and `%@` for `%lld` are not.
        ("realworld/Xcode.xcloc", [
            "argument-mismatch de %@/min",
            "argument-type de %lld sessions",
            "missing-key de Start focus",
            "translation-state de Pomodoro/Localizable.xcstrings|Cancel",
        ]),
        // Plural units checked as plurals. Expected from CLDR's Russian cardinal rules: one (1, 21, …), few (2–4,
        // 22–24, …), many (0, 5–20, …) and other (decimals). `%lld photos` has one and other only; `%d days left` (a
        // .stringsdict plural) lacks many; `%lld songs` gives its count as `%@` in many; `plural.several` is no CLDR
        // category; `[Shelf/Count/Threads]` (a .stringsdict plural whose format key Xcode left out) has one and other
        // only. `%lld files`, the substitution of `shelf.summary` and the .stringsdict plural on argument 2
        // (`%1$@ has %2$#@books@`) are complete; a device variation stays a string.
        ("realworld/Plurals.xcloc", [
            "argument-type ru %lld songs",
            "missing-plural-category ru %d days left",
            "missing-plural-category ru %lld photos",
            "missing-plural-category ru %lld photos",
            "missing-plural-category ru [Shelf/Count/Threads]",
            "missing-plural-category ru [Shelf/Count/Threads]",
            "syntax-error - %lld items",
        ]),
    ])
    func xcodeExportBundleIsReadWithPrintfRules(bundle: String, expected: [String]) throws {
        #expect(try Self.spots(CatalogFixtures.fixture(bundle).path) == expected)
    }

    @Test func xcodeExportUnitsAndFiles() throws {
        let path = CatalogFixtures.fixture("realworld/Xcode.xcloc/Localized Contents/de.xliff")
        let document = try XLIFFDocument(bytes: [UInt8](Data(contentsOf: path)))
        #expect(document.files.map(\.original) == ["Pomodoro/InfoPlist.xcstrings", "Pomodoro/Localizable.xcstrings"])
        #expect(document.files.filter { !$0.isPrintf }.isEmpty)
        #expect(document.units.count == 9)  // the unit with an empty id is not one
        let (content, problems) = document.contentSkippingProblems()
        #expect(problems.map(\.key) == ["%lld sessions"])
        let german = Dictionary(uniqueKeysWithValues: (content.translations[CatalogLocale(LocaleTag("de")!)] ?? []).map { ($0.key, $0.pattern) })
        #expect(german["Not 100% accurate"] == "Nicht 100 % genau")
        #expect(german["Unknown fault %1$03d"] == "Unbekannter Fehler {arg1, number, integer}")
    }

    @Test func xcodePluralUnitsAreReadAsOneMessage() throws {
        let path = CatalogFixtures.fixture("realworld/Plurals.xcloc/Localized Contents/ru.xliff")
        let (content, _) = try XLIFFDocument(bytes: [UInt8](Data(contentsOf: path))).contentSkippingProblems()
        let english = Dictionary(uniqueKeysWithValues: content.source.map { ($0.key, $0.message) })
        let russian = Dictionary(uniqueKeysWithValues: (content.translations[CatalogLocale(tag: "ru")!] ?? []).map { ($0.key, $0.pattern) })
        // ICU MessageFormat written by hand from the units: the count is `#`, the other argument `{arg1}`.
        #expect(english["%lld files"] == "{arg1, plural, one {# file} other {# files}}")
        #expect(russian["%lld files"] == "{arg1, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}")
        #expect(english["%1$@ has %2$d books"] == "{arg1} has {books, plural, one {# book} other {# books}}")
        #expect(russian["%1$@ has %2$d books"] == "У {arg1} {books, plural, one {# книга} few {# книги} many {# книг} other {# книги}}")
        #expect(english["shelf.summary"] == "This {arg1} has {books, plural, one {# book} other {# books}}.")
        #expect(russian["shelf.summary"] == "На полке {arg1} {books, plural, one {# книга} few {# книги} many {# книг} other {# книги}}.")
        #expect(russian["[Shelf/Count/Threads]"] == "{ShelfCountThreads, plural, one {# ветка} other {# ветки}}")
        #expect(russian["Tap to open|==|device.iphone"] == "Нажмите, чтобы открыть")
        #expect(english.keys.filter { $0.contains("|==|plural") || $0.hasPrefix("/") }.isEmpty)
    }

    /// A translated `<trans-unit>` of an Xcode export.
    static func xliffUnit(_ id: String, _ source: String, _ target: String) -> String {
        "<trans-unit id=\"\(id)\" xml:space=\"preserve\"><source>\(source)</source><target state=\"translated\">\(target)</target></trans-unit>"
    }

    /// One `<file>` of an Xcode export to Russian.
    static func xcodeFile(_ original: String, _ units: [String]) -> String {
        """
        <file original="\(original)" source-language="en" target-language="ru" datatype="plaintext">
        <header><tool tool-id="com.apple.dt.xcode" tool-name="Xcode" tool-version="15.2" build-num="15C500b"/></header>
        <body>
        \(units.joined(separator: "\n"))
        </body>
        </file>
        """
    }

    /// An Xcode export has one `<file>` per source file, and two files may hold the same plural key (an app's and its
    /// widget's `Localizable.xcstrings`, two `.stringsdict`s). Each file's plural is its own message, keyed by the
    /// file when an earlier file has the key, whatever form its units take — not merged with the first, not a
    /// duplicate, not strings of their own. Expected from CLDR's Russian cardinal rules (one, few, many, other):
    /// the widget's plurals have one and other only, so each lacks few and many; the app's are complete.
    @Test func xcodePluralKeysRepeatedAcrossFilesStayEachFilesOwn() throws {
        let (unit, file) = (Self.xliffUnit, Self.xcodeFile)
        let complete = [("one", "%lld file", "%lld файл"), ("few", "%lld files", "%lld файла"), ("many", "%lld files", "%lld файлов"), ("other", "%lld files", "%lld файла")]
        let days = [("one", "%d day left", "Остался %d день"), ("few", "%d days left", "Осталось %d дня"), ("many", "%d days left", "Осталось %d дней"),
                    ("other", "%d days left", "Осталось %d дня")]
        let books = [("one", "%2$lld book", "%2$lld книга"), ("few", "%2$lld books", "%2$lld книги"), ("many", "%2$lld books", "%2$lld книг"),
                     ("other", "%2$lld books", "%2$lld книги")]
        let xliff = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
            \(file("App/Localizable.xcstrings", complete.map { unit("%lld files|==|plural.\($0.0)", $0.1, $0.2) } + [unit("summary", "Your shelf", "Ваша полка")]))
            \(file("Widget/Localizable.xcstrings", [complete[0], complete[3]].map { unit("%lld files|==|plural.\($0.0)", $0.1, $0.2) }
                + [unit("summary", "This %1$@ has %2$#@books@.", "На полке %1$@ %2$#@books@.")]
                + books.map { unit("summary|==|substitutions.books.plural.\($0.0)", $0.1, $0.2) }))
            \(file("App/Base.lproj/Localizable.stringsdict", days.map { unit("/%d days left:dict/days:dict/\($0.0):dict/:string", $0.1, $0.2) }))
            \(file("Widget/Base.lproj/Localizable.stringsdict", [days[0], days[3]].map { unit("/%d days left:dict/days:dict/\($0.0):dict/:string", $0.1, $0.2) }))
            </xliff>

            """
        let input = try #require(FormatLintInput(name: "ru.xliff", kind: "xliff", files: FormatFiles(["": Array(xliff.utf8)])))
        let found = Linter().lint(input).map { "\($0.check.code) \($0.locale ?? "-") \($0.key ?? "-")" }.sorted()
        #expect(found == [
            "missing-plural-category ru Widget/Base.lproj/Localizable.stringsdict|%d days left",
            "missing-plural-category ru Widget/Base.lproj/Localizable.stringsdict|%d days left",
            "missing-plural-category ru Widget/Localizable.xcstrings|%lld files",
            "missing-plural-category ru Widget/Localizable.xcstrings|%lld files",
        ])
        let (content, problems) = try XLIFFDocument(bytes: Array(xliff.utf8)).contentSkippingProblems()
        #expect(problems.isEmpty)
        let russian = Dictionary(uniqueKeysWithValues: (content.translations[CatalogLocale(tag: "ru")!] ?? []).map { ($0.key, $0.pattern) })
        // ICU MessageFormat written by hand from the units.
        #expect(content.source.map(\.key) == ["%lld files", "summary", "Widget/Localizable.xcstrings|%lld files", "Widget/Localizable.xcstrings|summary",
                                              "%d days left", "Widget/Base.lproj/Localizable.stringsdict|%d days left"])
        #expect(russian["summary"] == "Ваша полка")
        #expect(russian["Widget/Localizable.xcstrings|summary"] == "На полке {arg1} {books, plural, one {# книга} few {# книги} many {# книг} other {# книги}}.")
        #expect(russian["Widget/Base.lproj/Localizable.stringsdict|%d days left"] == "{days, plural, one {Остался # день} other {Осталось # дня}}")
    }

    /// A String Catalog localization that varies by device and counts with a substitution: Xcode keeps the
    /// substitutions beside `variations` at the localization's root, and each device's text refers to them
    /// (`%#@COUNT@`; its export has `KEY|==|device.iphone`, `KEY|==|device.other` and one
    /// `KEY|==|substitutions.COUNT.plural.one`, … — no substitution nested in a device). Each device variation is
    /// linted as a string of its own with those substitutions. Expected from CLDR's cardinal rules: German needs
    /// one and other, so its substitution with `other` only lacks `one` in both variations; Russian's is complete.
    static let deviceSubstitutionCatalog: String = {
        func unit(_ value: String) -> String { "{ \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"\(value)\" } }" }
        func localization(_ categories: [(String, String)], iphone: String) -> String {
            let plural = categories.map { "\"\($0.0)\" : \(unit($0.1))" }.joined(separator: ",\n      ")
            return """
                { "substitutions" : { "COUNT" : { "argNum" : 1, "formatSpecifier" : "lld", "variations" : { "plural" : {
                      \(plural) } } } },
                  "variations" : { "device" : { "iphone" : \(unit(iphone)), "other" : \(unit("%#@COUNT@")) } } }
                """
        }
        let russian = ["one", "few", "many", "other"].map { ($0, "%arg фото") }
        return """
            { "sourceLanguage" : "en", "strings" : { "%lld photos" : { "localizations" : {
              "de" : \(localization([("other", "%arg Fotos")], iphone: "%#@COUNT@ auf diesem iPhone")),
              "en" : \(localization([("one", "%arg photo"), ("other", "%arg photos")], iphone: "%#@COUNT@ on this iPhone")),
              "ru" : \(localization(russian, iphone: "%#@COUNT@ на этом iPhone")) } },
              "Done" : { "localizations" : { "de" : \(unit("Fertig")), "ru" : \(unit("Готово")) } } }, "version" : "1.1" }

            """
    }()

    @Test func deviceVariationsWithSubstitutionsAreLintedPerVariation() throws {
        let input = try #require(FormatLintInput(name: "Localizable.xcstrings", kind: "xcstrings", files: FormatFiles(["": Array(Self.deviceSubstitutionCatalog.utf8)])))
        let found = Linter().lint(input).map { "\($0.check.code) \($0.locale ?? "-") \($0.key ?? "-")" }.sorted()
        #expect(found == [
            "missing-plural-category de %lld photos (device: iphone)",
            "missing-plural-category de %lld photos (device: other)",
        ])
    }

    /// The same string in an Xcode export: each device's text is a unit (`KEY|==|device.iphone`) and the
    /// substitution's categories are units of their own, once (`KEY|==|substitutions.COUNT.plural.one`, sources
    /// spelled `%1$lld` as Xcode writes them). Each device's text is read as a plural with those units. Expected
    /// from CLDR's Russian rules (one, few, many, other): the substitution lacks many, in both devices' messages.
    @Test func xcodeDeviceVariationsWithSubstitutionsAreReadAsPlurals() throws {
        let unit = Self.xliffUnit
        let units = [
            unit("%lld photos|==|device.iphone", "%#@COUNT@ on this iPhone", "%#@COUNT@ на этом iPhone"),
            unit("%lld photos|==|device.other", "%#@COUNT@", "%#@COUNT@"),
            unit("%lld photos|==|substitutions.COUNT.plural.one", "%1$lld photo", "%1$lld фото"),
            unit("%lld photos|==|substitutions.COUNT.plural.few", "%1$lld photos", "%1$lld фото"),
            unit("%lld photos|==|substitutions.COUNT.plural.other", "%1$lld photos", "%1$lld фото"),
        ]
        let xliff = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
            \(Self.xcodeFile("App/Localizable.xcstrings", units))
            </xliff>

            """
        let input = try #require(FormatLintInput(name: "ru.xliff", kind: "xliff", files: FormatFiles(["": Array(xliff.utf8)])))
        #expect(Linter().lint(input).map { "\($0.check.code) \($0.locale ?? "-") \($0.key ?? "-")" }.sorted() == [
            "missing-plural-category ru %lld photos|==|device.iphone",
            "missing-plural-category ru %lld photos|==|device.other",
        ])
        let (content, problems) = try XLIFFDocument(bytes: Array(xliff.utf8)).contentSkippingProblems()
        #expect(problems.isEmpty)
        let english = Dictionary(uniqueKeysWithValues: content.source.map { ($0.key, $0.message) })
        // ICU MessageFormat written by hand from the units.
        #expect(english == ["%lld photos|==|device.iphone": "{COUNT, plural, one {# photo} other {# photos}} on this iPhone",
                            "%lld photos|==|device.other": "{COUNT, plural, one {# photo} other {# photos}}"])
    }

    @Test func xcodePluralUnitIDs() {
        #expect(XLIFFPluralUnits.parse(id: "%lld items|==|plural.one")?.key == "%lld items")
        #expect(XLIFFPluralUnits.parse(id: "%lld items|==|plural.one")?.part == .catalogCategory("one"))
        #expect(XLIFFPluralUnits.parse(id: "/%d days:dict/NSStringLocalizedFormatKey:dict/:string")?.part == .format)
        #expect(XLIFFPluralUnits.parse(id: "/%d days:dict/days:dict/few:dict/:string")?.key == "%d days")
        #expect(XLIFFPluralUnits.parse(id: "/%d days:dict/days:dict/few:dict/:string")?.part == .variableCategory(variable: "days", category: "few"))
        #expect(XLIFFPluralUnits.parse(id: "Tap|==|device.iphone") == nil)
        #expect(XLIFFPluralUnits.parse(id: "one_substitution|==|substitutions.strings.plural.one")?.part == .variableCategory(variable: "strings", category: "one"))
        #expect(XLIFFPluralUnits.parse(id: "/[Generic/Count/Threads]:dict/GenericCountThreads:dict/one:dict/:string")?.key == "[Generic/Count/Threads]")
        #expect(XLIFFPluralUnits.parse(id: "Cancel") == nil)
        #expect(XLIFFPluralUnits.parse(id: "a|b") == nil)
    }

    @Test func javaFormatterSpecifiersAreReadNotRefused() throws {
        // Only `%1$s` for the hex `%1$06x` is wrong: an integer passed to %s formats, but not as the source shows it.
        #expect(try Self.spots(CatalogFixtures.fixture("realworld/formatter-res").path) == [
            "argument-type de color_hex",
        ])
    }

    @Test(arguments: [("%.1f", PrintfSpecifier.Category.float, "f"), ("1$.2f", .float, "f"), ("06x", .integer, "x"), ("n", .newline, "n"),
                      ("-10s", .text, "s"), ("lld", .integer, "lld"), ("@", .text, "@"), ("hd", .integer, "hd"), ("h", .other, "h"),
                      ("tY", .other, "tY"), (",d", .integer, "d"), ("s", .text, "s"), ("S", .text, "S"), ("d", .integer, "d"),
                      ("D", .integer, "D"), ("lli", .integer, "lli"), ("llx", .integer, "llx"), ("5$lld", .integer, "lld")])
    func specifierSyntax(text: String, category: PrintfSpecifier.Category, conversion: String) throws {
        // The `N$` is read by the caller; here it is skipped like PrintfDialect does.
        var rest = Substring(text.hasPrefix("%") ? String(text.dropFirst()) : text)
        if let dollar = rest.firstIndex(of: "$") { rest = rest[rest.index(after: dollar)...] }
        let specifier = try #require(PrintfSpecifier.read(rest))
        #expect(specifier.category == category)
        #expect(specifier.conversion == conversion)
    }

    @Test(arguments: [" of", " m", "z", "", "."])
    func aPercentSignBeforeTheseIsNoSpecifier(text: String) {
        #expect(PrintfSpecifier.read(Substring(text)) == nil)
    }

    @Test func androidOptOutsAreHonoured() throws {
        // tools:ignore on a string and on a locale's <resources>, translatable="false", lint.xml's MissingQuantity,
        // Polish plurals without `other`; only the untranslated title and the stray text remain.
        #expect(try Self.spots(CatalogFixtures.fixture("realworld/ignore-project/app/src/main/res").path) == [
            "missing-key fr title",
            "syntax-error fr -",
        ])
    }

    /// Text between resources is reported where it is, as aapt2 does ("values-fr/strings.xml:7: error: plain text not
    /// allowed here"): line 7, column 5 of the fixture (`    minutes restantes`), not at `<resources>` (line 2).
    /// AnkiDroid's English `01-core.xml` has a stray `"` after a `</string>` on line 171 of 300.
    @Test func strayTextIsReportedWhereItIs() throws {
        let res = CatalogFixtures.fixture("realworld/ignore-project/app/src/main/res").path
        let stray = Linter().lint(try #require(try FormatLintInput.detect(path: res))).filter { $0.check == .syntaxError }
        #expect(stray.map { "\(($0.file as NSString).lastPathComponent) \($0.position.line):\($0.position.column)" } == ["strings.xml 7:5"])
        let bytes = Array("<resources>\n  <string name=\"a\">Ä</string>\n  <string name=\"b\">B</string>é\"\n</resources>\n".utf8)
        #expect(AndroidResourceDocument(files: FormatFiles(["values/strings.xml": bytes])).fileProblems.map { "\($0.position?.line ?? 0):\($0.position?.column ?? 0)" } == ["3:30"])
    }

    @Test func stylingTagsAreComparedPerTranslation() throws {
        // The German copy keeps <a> and <b>; French drops the link and adds <i> where English has none.
        #expect(try Self.spots(CatalogFixtures.fixture("realworld/markup-res").path) == [
            "markup-mismatch fr plain",
            "markup-mismatch fr privacy",
        ])
    }

    @Test func importRefusesStylingItCannotKeep() throws {
        let files = try FormatFiles.load(path: CatalogFixtures.fixture("realworld/markup-res").path)
        let error = try #require(throws: ConversionError.self) { try AndroidResourcesFormat().read(files) }
        #expect(Set(error.problems.compactMap(\.key)) == ["privacy", "bold_name", "plain"])
    }

    @Test func stringCatalogKeySpecifiersAndDeviceVariations() throws {
        // The key's `%lld %@` are the arguments; each device variation is checked on its own. "iPad" is a brand
        // (one word, same script), so nothing is reported.
        #expect(try Self.spots(CatalogFixtures.fixture("realworld/Variations.xcstrings").path) == [])
        let bytes = try [UInt8](Data(contentsOf: CatalogFixtures.fixture("realworld/Variations.xcstrings")))
        let keys = try StringCatalogDocument(bytes: bytes, splittingVariations: true).entries.map(\.key)
        #expect(keys == ["followers %lld %@", "platform (device: ipad)", "platform (device: other)", "liked %lld", "Not 100% accurate"])
    }
}
