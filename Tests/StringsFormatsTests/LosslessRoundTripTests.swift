import Foundation
import StableJSON
import Strings
import Testing
@testable import StringsFormats

/// Import then export of files lookd did not write gives them back (docs/formats.md, "Round trip"): the
/// patterns are real projects' (Tests/StringsFormatsTests/Fixtures/realworld/SOURCES.md), the expected bytes are the
/// fixture's own, written by hand.
@Suite(.timeLimit(.minutes(10))) struct LosslessRoundTripTests {
    static func fixtureFiles(_ name: String) throws -> FormatFiles {
        try FormatFiles.load(path: CatalogFixtures.fixture("realworld/" + name).path)
    }

    /// The catalogs an import writes, and the original it keeps.
    static func imported(_ format: any CatalogFormat, _ files: FormatFiles) throws -> (CatalogContent, [ConversionError.Problem]) {
        try format.readSkippingProblems(files)
    }

    @Test func stringCatalogComesBackByteForByte() throws {
        let original = try Self.fixtureFiles("RoundTrip.xcstrings")
        let (content, carried) = try Self.imported(StringCatalogFormat(), original)
        // The device variations are what lookd's catalogs cannot hold: carried, not imported.
        #expect(carried.map(\.key) == ["Tap to open"])
        #expect(content.source.map(\.key) == ["%@ and %@", "%d items", "followers %lld", "Tap to open"])
        let exported = try StringCatalogFormat().write(content, onto: original)
        #expect(exported.single == original.single)
    }

    @Test func aChangedTranslationIsTheOnlyChange() throws {
        let original = try Self.fixtureFiles("RoundTrip.xcstrings")
        var (content, _) = try Self.imported(StringCatalogFormat(), original)
        let german = CatalogLocale(tag: "de")!
        content.translations[german] = content.translations[german]!.map { entry in
            entry.key == "%@ and %@" ? .init(key: entry.key, pattern: "{arg1} sowie {arg2}") : entry
        }
        let exported = try #require(try StringCatalogFormat().write(content, onto: original).single)
        let before = try JSONReader.readDocument(original.single!, options: .formatFile)
        let after = try JSONReader.readDocument(exported, options: .formatFile)
        #expect(after["version"]?.stringValue == "1.1")
        let joined = try #require(after["strings"]?["%@ and %@"])
        // The file's `%@ und %@` spelling is kept (not lookd's positional `%1$@ sowie %2$@`): the arguments are in order.
        #expect(joined["localizations"]?["de"]?["stringUnit"]?["value"]?.stringValue == "%@ sowie %@")
        #expect(joined["localizations"]?["de"]?["stringUnit"]?["state"]?.stringValue == "translated")
        // A changed localization gets state translated; everything else of the string and of the file is as it was.
        #expect(joined["localizations"]?["fr"]?.jsonValue == before["strings"]?["%@ and %@"]?["localizations"]?["fr"]?.jsonValue)
        #expect(joined["localizations"]?["en"] == nil)
        #expect(joined["comment"]?.stringValue == "Two names joined.")
        #expect(joined["extractionState"]?.stringValue == "extracted_with_value")
        for key in ["%d items", "followers %lld", "provider_authority", "Tap to open"] {
            #expect(after["strings"]?[key]?.jsonValue == before["strings"]?[key]?.jsonValue, "\(key)")
        }
        // Xcode's layout: the only lines that differ are the changed value's.
        let changed = zip(String(decoding: original.single!, as: UTF8.self).split(separator: "\n"),
                          String(decoding: exported, as: UTF8.self).split(separator: "\n")).filter { $0 != $1 }
        #expect(changed.map(\.1) == ["            \"state\" : \"translated\",", "            \"value\" : \"%@ sowie %@\""])
    }

    /// A changed or added localization is written with the file's specifiers where the meaning is the same
    /// (docs/formats.md, "Round trip"): `%d` stays `%d` (not `%lld`); arguments a translation reorders need
    /// positions, written with the file's conversion; a localization the file did not have is spelled like the key.
    @Test func aChangedLocalizationKeepsTheFilesSpecifiers() throws {
        let original = try Self.fixtureFiles("RoundTrip.xcstrings")
        var (content, _) = try Self.imported(StringCatalogFormat(), original)
        let german = CatalogLocale(tag: "de")!, french = CatalogLocale(tag: "fr")!
        // The imported German "%d Elemente", with the word changed: whatever ICU form the import gave the count.
        let items = try #require(content.translations[german]?.first { $0.key == "%d items" }?.pattern)
        #expect(items.contains("Elemente"))
        content.translations[german] = content.translations[german]!.map { entry in
            switch entry.key {
            case "%d items": .init(key: entry.key, pattern: items.replacingOccurrences(of: "Elemente", with: "Stück"))
            case "%@ and %@": .init(key: entry.key, pattern: "{arg2} und {arg1}")
            default: entry
            }
        }
        content.translations[french, default: []].append(.init(key: "%d items", pattern: items.replacingOccurrences(of: "Elemente", with: "articles")))
        let exported = try #require(try StringCatalogFormat().write(content, onto: original).single)
        let after = try JSONReader.readDocument(exported, options: .formatFile)
        func value(_ key: String, _ locale: String) -> String? { after["strings"]?[key]?["localizations"]?[locale]?["stringUnit"]?["value"]?.stringValue }
        #expect(value("%d items", "de") == "%d Stück")
        #expect(value("%@ and %@", "de") == "%2$@ und %1$@")
        #expect(value("%d items", "fr") == "%d articles")
        #expect(value("%@ and %@", "fr") == "%@ et %@")
    }

    /// A changed localization that uses substitutions keeps the names the file gives them (docs/formats.md, "Round
    /// trip"): German's own `anzahl`, not the name lookd gives the argument; a localization the file did not have
    /// takes the source language's (`count`). Expected values written by hand from the file below.
    @Test func aChangedLocalizationKeepsTheFilesSubstitutionNames() throws {
        func localization(_ template: String, _ name: String, one: String, other: String) -> String {
            """
            { "stringUnit" : { "state" : "translated", "value" : "\(template)" },
                      "substitutions" : { "\(name)" : { "argNum" : 2, "formatSpecifier" : "lld", "variations" : { "plural" : {
                        "one" : { "stringUnit" : { "state" : "translated", "value" : "\(one)" } },
                        "other" : { "stringUnit" : { "state" : "translated", "value" : "\(other)" } } } } } } }
            """
        }
        let file = """
            { "sourceLanguage" : "en", "strings" : { "%@ liked %lld posts" : { "localizations" : {
              "de" : \(localization("%1$@ gefällt %2$#@anzahl@", "anzahl", one: "%arg Beitrag", other: "%arg Beiträge")),
              "en" : \(localization("%1$@ liked %2$#@count@", "count", one: "%arg post", other: "%arg posts")),
              "ru" : \(localization("%1$@ понравилось %2$#@n@", "n", one: "%arg запись", other: "%arg записей")) } } }, "version" : "1.0" }

            """
        let original = FormatFiles(["": Array(file.utf8)])
        var (content, problems) = try Self.imported(StringCatalogFormat(), original)
        #expect(problems.isEmpty)
        let de = CatalogLocale(tag: "de")!, fr = CatalogLocale(tag: "fr")!
        let german = try #require(content.translations[de]?.first?.pattern)
        content.translations[de] = [.init(key: "%@ liked %lld posts", pattern: german.replacingOccurrences(of: "Beiträge", with: "Posts"))]
        content.translations[fr] = [.init(key: "%@ liked %lld posts", pattern: german.replacingOccurrences(of: "gefällt", with: "aime")
                                        .replacingOccurrences(of: "Beiträge", with: "publications").replacingOccurrences(of: "Beitrag", with: "publication"))]
        let exported = try #require(try StringCatalogFormat().write(content, onto: original).single)
        let after = try JSONReader.readDocument(exported, options: .formatFile)
        let localizations = try #require(after["strings"]?["%@ liked %lld posts"]?["localizations"])
        #expect(localizations["de"]?["stringUnit"]?["value"]?.stringValue == "%1$@ gefällt %2$#@anzahl@")
        #expect(localizations["de"]?["substitutions"]?.members?.map(\.key) == ["anzahl"])
        #expect(localizations["de"]?["substitutions"]?["anzahl"]?["variations"]?["plural"]?["other"]?["stringUnit"]?["value"]?.stringValue == "%arg Posts")
        #expect(localizations["fr"]?["stringUnit"]?["value"]?.stringValue == "%1$@ aime %2$#@count@")
        #expect(localizations["fr"]?["substitutions"]?.members?.map(\.key) == ["count"])
        #expect(localizations["ru"]?.jsonValue == (try JSONReader.readDocument(Array(file.utf8), options: .formatFile))["strings"]?["%@ liked %lld posts"]?["localizations"]?["ru"]?.jsonValue)
    }

    /// A localization varying by device with its substitutions at the root (PlatformRulesTests.deviceSubstitutionCatalog)
    /// is what lookd's catalogs cannot hold: import carries it, and export gives it back as it was — untouched, and
    /// the whole file byte for byte when nothing else changed.
    @Test func deviceVariationsWithSubstitutionsAreCarried() throws {
        let original = FormatFiles(["": Array(PlatformRulesTests.deviceSubstitutionCatalog.utf8)])
        var (content, carried) = try Self.imported(StringCatalogFormat(), original)
        #expect(Set(carried.compactMap(\.key)) == ["%lld photos"])
        #expect(content.source.map(\.key) == ["Done"])
        #expect(try StringCatalogFormat().write(content, onto: original).single == original.single)
        let german = CatalogLocale(tag: "de")!
        content.translations[german] = [.init(key: "Done", pattern: "Erledigt")]
        let exported = try #require(try StringCatalogFormat().write(content, onto: original).single)
        let before = try JSONReader.readDocument(original.single!, options: .formatFile)
        let after = try JSONReader.readDocument(exported, options: .formatFile)
        #expect(after["strings"]?["%lld photos"]?.jsonValue == before["strings"]?["%lld photos"]?.jsonValue)
        #expect(after["strings"]?["Done"]?["localizations"]?["de"]?["stringUnit"]?["value"]?.stringValue == "Erledigt")
    }

    @Test func removedAndAddedKeys() throws {
        let original = try Self.fixtureFiles("RoundTrip.xcstrings")
        var (content, _) = try Self.imported(StringCatalogFormat(), original)
        content.source.removeAll { $0.key == "%d items" }
        for locale in content.locales { content.translations[locale]?.removeAll { $0.key == "%d items" } }
        content.source.append(.init(key: "greeting", message: "Hello"))
        let exported = try #require(try StringCatalogFormat().write(content, onto: original).single)
        let after = try JSONReader.readDocument(exported, options: .formatFile)
        let keys = try #require(after["strings"]?.members).map(\.key)
        #expect(keys == ["%@ and %@", "followers %lld", "provider_authority", "Tap to open", "greeting"])
    }

    @Test func androidTreeComesBackByteForByte() throws {
        let original = try Self.fixtureFiles("roundtrip-res")
        let (content, carried) = try Self.imported(AndroidResourcesFormat(), original)
        // translatable="false" strings are not read at all; markup and the array are carried.
        #expect(Set(carried.compactMap(\.key)) == ["privacy_link", "quality_list"])
        #expect(content.source.map(\.key) == ["title_main", "subscribe", "views_count", "it_is", "spaced", "videos", "percent_plain"])
        #expect(content.source.first { $0.key == "title_main" }?.message == "@string/app_name")
        let exported = try AndroidResourcesFormat().write(content, onto: original)
        #expect(exported.files.keys.sorted() == original.files.keys.sorted())
        for (path, bytes) in original.files {
            #expect(exported.files[path] == bytes, "\(path)")
        }
    }

    @Test func androidChangesTouchOnlyTheirResources() throws {
        let original = try Self.fixtureFiles("roundtrip-res")
        var (content, _) = try Self.imported(AndroidResourcesFormat(), original)
        let german = CatalogLocale(tag: "de")!
        content.translations[german] = content.translations[german]!.compactMap { entry in
            switch entry.key {
            case "subscribe": .init(key: entry.key, pattern: "Jetzt abonnieren")
            case "it_is": nil
            default: entry
            }
        }
        content.source.append(.init(key: "new_key", message: "It's new"))
        content.translations[german]!.append(.init(key: "new_key", pattern: "Neu"))
        let exported = try AndroidResourcesFormat().write(content, onto: original)
        let before = String(decoding: original.files["values-de/strings.xml"]!, as: UTF8.self)
        let expected = before
            .replacingOccurrences(of: "<string name=\"subscribe\">Abonnieren</string>", with: "<string name=\"subscribe\">Jetzt abonnieren</string>")
            .replacingOccurrences(of: "    <string name=\"it_is\">Erledigt</string>\n", with: "")
            .replacingOccurrences(of: "</resources>", with: "    <string name=\"new_key\">Neu</string>\n</resources>")
        #expect(String(decoding: exported.files["values-de/strings.xml"]!, as: UTF8.self) == expected)
        let english = String(decoding: original.files["values/strings.xml"]!, as: UTF8.self)
            .replacingOccurrences(of: "</resources>", with: "    <string name=\"new_key\">It\\'s new</string>\n</resources>")
        #expect(String(decoding: exported.files["values/strings.xml"]!, as: UTF8.self) == english)
        #expect(exported.files["values-b+sr+Latn/strings.xml"] == original.files["values-b+sr+Latn/strings.xml"])
    }

    /// A changed Android resource keeps the team's specifier spelling where the meaning stays (docs/formats.md,
    /// "Round trip"). Java's `Formatter`: an ordinary index (`%s %d`) is the arguments in order, the same as
    /// `%1$s %2$d`, so the file's sequential spelling stays; a translation that reorders its arguments needs
    /// explicit indices (`%2$d … %1$s`); `%1$.1f` keeps its precision and index; each `<item>` of a `<plurals>` is
    /// respelled on its own; a resource new to a locale is spelled as the English file spells it. Expected values
    /// written by hand from the files below.
    @Test func aChangedAndroidResourceKeepsTheFilesSpecifiers() throws {
        let english = """
            <?xml version="1.0" encoding="utf-8"?>
            <resources>
                <string name="sent">%s sent %d messages</string>
                <string name="distance">%1$.1f km away</string>
                <string name="moved">%s moved %d files</string>
                <plurals name="shared">
                    <item quantity="one">%s shared %d photo</item>
                    <item quantity="other">%s shared %d photos</item>
                </plurals>
            </resources>

            """
        let german = """
            <?xml version="1.0" encoding="utf-8"?>
            <resources>
                <string name="sent">%s hat %d Nachrichten gesendet</string>
                <string name="distance">%1$.1f km entfernt</string>
                <string name="moved">%s hat %d Dateien verschoben</string>
                <plurals name="shared">
                    <item quantity="one">%s hat %d Foto geteilt</item>
                    <item quantity="other">%s hat %d Fotos geteilt</item>
                </plurals>
            </resources>

            """
        let original = FormatFiles(["values/strings.xml": Array(english.utf8), "values-de/strings.xml": Array(german.utf8)])
        var (content, problems) = try Self.imported(AndroidResourcesFormat(), original)
        #expect(problems.isEmpty)
        let de = CatalogLocale(tag: "de")!, fr = CatalogLocale(tag: "fr")!
        let imported = Dictionary(uniqueKeysWithValues: content.translations[de]!.map { ($0.key, $0.pattern) })
        // Whatever ICU form the import gave each argument: only the words change, or the order of the two arguments.
        let sent = try #require(imported["sent"]).replacingOccurrences(of: "gesendet", with: "verschickt")
        let distance = try #require(imported["distance"]).replacingOccurrences(of: "entfernt", with: "weit weg")
        let shared = try #require(imported["shared"]).replacingOccurrences(of: "geteilt", with: "freigegeben")
        let moved = try #require(imported["moved"])
        let parts = moved.components(separatedBy: " hat ")
        let reordered = parts[1].replacingOccurrences(of: " Dateien verschoben", with: "") + " Dateien von " + parts[0] + " verschoben"
        content.translations[de] = content.translations[de]!.map { entry in
            switch entry.key {
            case "sent": .init(key: entry.key, pattern: sent)
            case "distance": .init(key: entry.key, pattern: distance)
            case "moved": .init(key: entry.key, pattern: reordered)
            case "shared": .init(key: entry.key, pattern: shared)
            default: entry
            }
        }
        content.translations[fr] = [.init(key: "sent", pattern: sent.replacingOccurrences(of: " hat ", with: " a ")
                                        .replacingOccurrences(of: "Nachrichten verschickt", with: "messages envoyés"))]
        let exported = try AndroidResourcesFormat().write(content, onto: original)
        let expected = german
            .replacingOccurrences(of: "%s hat %d Nachrichten gesendet", with: "%s hat %d Nachrichten verschickt")
            .replacingOccurrences(of: "%1$.1f km entfernt", with: "%1$.1f km weit weg")
            .replacingOccurrences(of: "%s hat %d Dateien verschoben", with: "%2$d Dateien von %1$s verschoben")
            .replacingOccurrences(of: "geteilt", with: "freigegeben")
        #expect(String(decoding: exported.files["values-de/strings.xml"]!, as: UTF8.self) == expected)
        #expect(String(decoding: exported.files["values-fr/strings.xml"] ?? [], as: UTF8.self).contains("<string name=\"sent\">%s a %d messages envoyés</string>"))
        #expect(exported.files["values/strings.xml"] == original.files["values/strings.xml"])
    }

    @Test(.enabled(if: AndroidCompileTests.aapt2 != nil, "aapt2 is not installed (Debian package 'aapt'; scripts/install-deps.sh installs it): the round-trip export is not compiled"))
    func androidRoundTripExportCompiles() throws {
        let original = try Self.fixtureFiles("roundtrip-res")
        var (content, _) = try Self.imported(AndroidResourcesFormat(), original)
        content.source.append(.init(key: "new_key", message: "@handle's \"quote\""))
        let result = try AndroidCompileTests.compile(try AndroidResourcesFormat().write(content, onto: original))
        #expect(result.status == 0, "\(result.output)")
    }

    /// An export lists every refusal in one run: each locale's, and Android's own rules on what converted.
    @Test func exportListsEveryRefusalAtOnce() throws {
        let content = CatalogContent(source: [
            .init(key: "greeting", message: "Hello {name}"),
            .init(key: "a.b", message: "One"),
            .init(key: "a_b", message: "Two"),
        ], translations: [
            CatalogLocale(tag: "de")!: [.init(key: "greeting", pattern: "Hallo {nom}")],
            CatalogLocale(tag: "fr")!: [.init(key: "greeting", pattern: "Bonjour {nom}")],
        ])
        do {
            _ = try AndroidResourcesFormat().write(content)
            Issue.record("expected a refusal")
        } catch let error as ConversionError {
            let places = error.problems.map { "\($0.key ?? "-") \($0.locale ?? "-")" }.sorted()
            // de and fr use an argument English lacks; a.b and a_b are both R.string.a_b.
            #expect(places == ["a_b -", "greeting de", "greeting fr"])
        }
    }
}
