import Foundation
import Testing
@testable import Strings

/// The shim runs simple messages as a compiled program instead of icu::MessageFormat. It must give the same bytes.
@Suite("Compiled messages agree with ICU's MessageFormat", .timeLimit(.minutes(10)))
struct CompiledMessageTests {
    static let numbers: [Argument] = [0, 1, 2, 3, 4, 5, 7, 11, 12, 21, 22, 25, 100, 101, 102, 111, 1000, 12_345, 1_000_000, -1, 1.5, 0.0]
    static let strings: [Argument] = ["Ledgerly", "\u{05D3}\u{05E0}\u{05D4}", "", "l’équipe {x} #1 'quoted'", "online", "away", "offline", "zzz"]

    /// Every combination of sample values for the message's arguments, by kind.
    func samples(_ formatter: MessageFormatter) -> [[String: Argument]] {
        var combinations: [[String: Argument]] = [[:]]
        for use in formatter.structure.arguments where combinations.first?[use.name] == nil {
            let values: [Argument] = switch use.type {
            case .plural, .selectordinal, .number, .choice, .other: Self.numbers
            case .date, .time: [.date(Date(timeIntervalSince1970: 1_794_476_460))]
            case .select, .string: Self.strings
            }
            combinations = combinations.flatMap { partial in values.map { partial.merging([use.name: $0]) { $1 } } }
        }
        return combinations
    }

    func compare(_ formatter: MessageFormatter, _ label: String) throws {
        for arguments in samples(formatter) {
            for options in [FormatOptions(isolateStrings: true), FormatOptions(isolateStrings: false)] {
                let fast = try formatter.format(arguments, options: options, key: label, engine: .fastest)
                let reference = try formatter.format(arguments, options: options, key: label, engine: .icuMessageFormat)
                #expect(fast == reference, "\(label) \(arguments)")
            }
        }
    }

    @Test("every message of every catalog, with numbers, names and select values")
    func everyCatalogMessage() throws {
        let localizer = realLocalizer
        var compiled = 0
        for locale in LocaleTag.all {
            for (key, entry) in localizer.catalogs(for: locale).entries {
                let formatter = try MessageFormatter(pattern: entry.pattern, locale: locale.identifier)
                if formatter.isCompiled { compiled += 1 }
                try compare(formatter, "\(locale) \(key)")
            }
        }
        // Most chat messages are text, names, plurals and selects: the program must really run.
        #expect(compiled > LocaleTag.all.count * 60, "compiled \(compiled)")
    }

    @Test("quoting, nesting, exact cases; offsets, ordinals and styled arguments fall back", arguments: [
        ("en", "It''s '{'literal'}' and {name}", true),
        ("en", "a quoted '#' outside a plural, {name}", false), // MessagePattern marks it INSERT_CHAR
        ("en", "{count, plural, =0 {none} =1 {exactly one} one {# item} other {# items '#' ''}}", true),
        ("ru", "{count, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}", true),
        ("ar", "{count, plural, zero {لا} one {واحد} two {اثنان} few {# قليلة} many {# كثيرة} other {# أخرى}}", true),
        ("en", "{count, plural, one {{who, select, online {# online friend} other {# friend of {who}}}} other {# friends ({who})}}", true),
        ("de", "{who, select, online {{count, plural, one {# Nachricht} other {# Nachrichten}}} other {nichts}}", true),
        ("en", "{count, plural, offset:1 =0 {nobody} one {you} other {you and # others}}", false),
        ("en", "{count, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", false),
        ("en", "{count, number, integer} items", false),
        ("fr", "{count, plural, one {# jour} many {# de jours} other {# jours}} le {date, date, ::dMMM}", false),
    ])
    func handWritten(_ locale: String, _ pattern: String, _ compiles: Bool) throws {
        let formatter = try MessageFormatter(pattern: pattern, locale: locale)
        #expect(formatter.isCompiled == compiles)
        try compare(formatter, pattern)
    }
}
