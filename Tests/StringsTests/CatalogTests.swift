import Foundation
import Strings
import Testing

/// The real catalogs in Resources/Localizations.
@Suite(.timeLimit(.minutes(10))) struct CatalogTests {
    let catalogs = realLocalizer.catalogs

    @Test func everyPresentCatalogHasEveryKeyAndParses() throws {
        #expect(catalogs.source.count >= 70 && catalogs.source.count <= 100)
        #expect(catalogs.ignoredFiles.isEmpty, "files not named by one of the 50 tags: \(catalogs.ignoredFiles)")
        for locale in catalogs.locales {
            let patterns = try #require(catalogs.patterns[locale])
            let missing = Set(catalogs.source.keys).subtracting(patterns.keys)
            let extra = Set(patterns.keys).subtracting(catalogs.source.keys)
            #expect(missing.isEmpty, "\(locale) lacks \(missing.sorted())")
            #expect(extra.isEmpty, "\(locale) has keys the source does not: \(extra.sorted())")
            for (key, pattern) in patterns {
                do {
                    _ = try MessageFormatter(pattern: pattern, locale: locale.identifier)
                } catch {
                    Issue.record("\(locale) \(key): \(error)")
                }
            }
        }
    }

    @Test func translationsKeepTheSourceArgumentsAndTheLocalesPluralCategories() throws {
        for locale in catalogs.locales where locale != .english {
            let categories = Set(try #require(PluralRules.forLocale(locale)).categories.map(\.rawValue))
            for (key, pattern) in try #require(catalogs.patterns[locale]) {
                guard let source = catalogs.source[key] else { continue }
                let translated = try MessageStructure(pattern: pattern)
                let original = try MessageStructure(pattern: source.message)
                #expect(translated.argumentTypes == original.argumentTypes, "\(locale) \(key): arguments differ")
                for (index, argument) in translated.arguments.enumerated() where argument.type == .plural {
                    let keys = translated.keys(ofArgument: index)
                    let named = Set(keys.filter { !$0.hasPrefix("=") })
                    #expect(named == categories, "\(locale) \(key): plural keys \(named.sorted()) vs ICU's \(categories.sorted())")
                    let sourceExact = original.arguments.indices
                        .filter { original.arguments[$0].name == argument.name && original.arguments[$0].type == .plural }
                        .flatMap { original.keys(ofArgument: $0) }.filter { $0.hasPrefix("=") }
                    #expect(Set(sourceExact).isSubset(of: Set(keys)), "\(locale) \(key): exact cases of the source missing")
                }
                for (index, argument) in translated.arguments.enumerated() where argument.type == .select || argument.type == .plural {
                    #expect(translated.keys(ofArgument: index).contains("other"), "\(locale) \(key): no other")
                }
                #expect(!pattern.unicodeScalars.contains { (0x2066...0x2069).contains($0.value) || (0x202A...0x202E).contains($0.value) },
                        "\(locale) \(key): hand-placed bidi control")
            }
        }
    }

    /// Every message of every locale formats through the library with sample arguments of the right kinds.
    /// Issue 6: every message of every catalog formats with the sample numbers, a Latin and a Hebrew name and a
    /// date, with no error and no ICU syntax left in the text; names appear in the output, isolated.
    @Test func everyMessageFormatsInEveryLocale() throws {
        let numbers: [Argument] = [0, 1, 2, 3, 5, 11, 21, 100, 1.5]
        let names = ["Ledgerly", "\u{05D3}\u{05E0}\u{05D4} \u{05DB}\u{05D4}\u{05DF}"] // "Dana Cohen" in Hebrew
        var formatted = 0
        for locale in LocaleTag.all {
            for key in catalogs.keys {
                let structure = try realLocalizer.structure(key: key, locale: locale)
                let takesNumber = structure.arguments.contains { [.plural, .selectordinal, .number].contains($0.type) }
                let takesName = structure.arguments.contains { $0.type == .string }
                for number in takesNumber ? numbers : [3] {
                    for name in takesName ? names : [names[0]] {
                        var arguments: [String: Argument] = [:]
                        for use in structure.arguments {
                            switch use.type {
                            case .plural, .selectordinal, .number, .choice, .other: arguments[use.name] = number
                            case .date, .time: arguments[use.name] = .date(november12)
                            case .select: arguments[use.name] = "online"
                            case .string: arguments[use.name] = .string(name)
                            }
                        }
                        let result = try realLocalizer.format(key: key, locale: locale, arguments: arguments)
                        #expect(!result.text.isEmpty && !result.text.contains("{"), "\(locale) \(key): \(result.text)")
                        if takesName {
                            #expect(result.text.contains("\u{2068}\(name)\u{2069}"), "\(locale) \(key) shows the name isolated")
                        }
                        formatted += 1
                    }
                }
            }
        }
        #expect(formatted > LocaleTag.all.count * catalogs.keys.count)
    }

    /// Expected texts come from PyICU 2.10 (ICU 72.1) formatting the same catalog patterns.
    @Test func pluralOutputsFromTheCatalogs() throws {
        func unread(_ locale: String, _ count: Argument) throws -> String {
            try realLocalizer.format(key: "thread.unread", locale: tag(locale), arguments: ["count": count]).text
        }
        #expect(try unread("ru", 1) == "1 непрочитанное сообщение")
        #expect(try unread("ru", 2) == "2 непрочитанных сообщения")
        #expect(try unread("ru", 5) == "5 непрочитанных сообщений")
        #expect(try unread("ru", 21) == "21 непрочитанное сообщение")
        #expect(try unread("ru", 1.5) == "1,5 непрочитанного сообщения")
        #expect(try unread("ar", 0) == "لا رسائل غير مقروءة")
        #expect(try unread("ar", 1) == "رسالة واحدة غير مقروءة")
        #expect(try unread("ar", 2) == "رسالتان غير مقروءتين")
        #expect(try unread("ar", 3) == "٣ رسائل غير مقروءة")
        #expect(try unread("ar", 11) == "١١ رسالة غير مقروءة")
        #expect(try unread("ar", 100) == "١٠٠ رسالة غير مقروءة")
        #expect(try unread("pl", 1) == "1 nieprzeczytana wiadomość")
        #expect(try unread("pl", 2) == "2 nieprzeczytane wiadomości")
        #expect(try unread("pl", 5) == "5 nieprzeczytanych wiadomości")
        #expect(try unread("pl", 22) == "22 nieprzeczytane wiadomości")
        #expect(try unread("ja", 1) == "未読メッセージ1件")
        #expect(try unread("ja", 1000) == "未読メッセージ1,000件")
        #expect(try unread("fr", 0) == "Aucun message non lu")
        #expect(try unread("fr", 1) == "1 message non lu")
        #expect(try unread("fr", 2) == "2 messages non lus")
        let photos = { (count: Int64) in
            try realLocalizer.format(key: "thread.photos", locale: tag("fr"), arguments: ["count": .integer(count)]).text
        }
        #expect(try [0, 1, 2].map(photos) == ["0 photo", "1 photo", "2 photos"]) // fr: 0 is `one`
        let arabicPhotos = try [0, 1, 2, 3, 11, 100].map {
            try realLocalizer.format(key: "thread.photos", locale: tag("ar"), arguments: ["count": .integer(Int64($0))]).text
        }
        #expect(arabicPhotos == ["لا صور", "صورة واحدة", "صورتان", "٣ صور", "١١ صورة", "١٠٠ صورة"])
    }

    @Test func exactZeroCases() throws {
        let expected = ["en": "No unread messages", "ru": "Нет непрочитанных сообщений", "ar": "لا رسائل غير مقروءة",
                        "ja": "未読メッセージはありません", "de": "Keine ungelesenen Nachrichten",
                        "pl": "Brak nieprzeczytanych wiadomości", "fr": "Aucun message non lu", "he": "אין הודעות שלא נקראו"]
        for (locale, text) in expected {
            let result = try realLocalizer.format(key: "thread.unread", locale: tag(locale), arguments: ["count": 0])
            #expect(result.text == text)
            #expect(result.servedBy == tag(locale))
        }
    }

    @Test func datesInMessages() throws {
        let arguments: [String: Argument] = ["product": "Ledgerly Plus", "date": .date(november12)]
        let de = try realLocalizer.format(key: "plan.renews", locale: tag("de"), arguments: arguments)
        let ja = try realLocalizer.format(key: "plan.renews", locale: tag("ja"), arguments: arguments)
        let ar = try realLocalizer.format(key: "plan.renews", locale: tag("ar"), arguments: arguments)
        #expect(de.text == "\u{2068}Ledgerly Plus\u{2069} verlängert sich am 12. Nov.")
        #expect(ja.text == "\u{2068}Ledgerly Plus\u{2069}は11月12日に更新されます")
        #expect(ar.text == "يتجدد \u{2068}Ledgerly Plus\u{2069} في ١٢ نوفمبر")
    }

    @Test func bidiIsolationInCatalogMessages() throws {
        let arabic = try realLocalizer.format(key: "thread.typing", locale: tag("ar"), arguments: ["name": "Anna Smith"])
        #expect(arabic.text == "\u{2068}Anna Smith\u{2069} يكتب…")
        let english = try realLocalizer.format(key: "thread.typing", locale: .english, arguments: ["name": "דנה כהן"])
        #expect(english.text == "\u{2068}דנה כהן\u{2069} is typing…")
        let plain = try realLocalizer.format(key: "thread.typing", locale: .english, arguments: ["name": "דנה כהן"],
                                             options: FormatOptions(isolateStrings: false))
        #expect(plain.text == "דנה כהן is typing…")
    }

    @Test func mergedCatalogCoversEveryKey() {
        for locale in LocaleTag.all {
            let merged = realLocalizer.catalogs(for: locale)
            #expect(merged.entries.count == catalogs.source.count, "\(locale)")
            #expect(merged.chain.last == .english)
        }
    }
}
