import Strings
import Testing

@Suite(.timeLimit(.minutes(10))) struct PluralTests {
    func rules(_ identifier: String) throws -> PluralRules { try #require(PluralRules.forLocale(identifier)) }

    @Test func categoriesFromICU() throws {
        #expect(try rules("ar").categories == [.zero, .one, .two, .few, .many, .other])
        #expect(try rules("ru").categories == [.one, .few, .many, .other])
        #expect(try rules("pl").categories == [.one, .few, .many, .other])
        #expect(try rules("ja").categories == [.other])
        #expect(try rules("fr").categories == [.one, .many, .other])
        #expect(try rules("en").categories == [.one, .other])
        // fr's `many` is for 1,000,000 and compact forms: integers 0…1,000 never select it.
        #expect(try rules("fr").integerCategories == [.one, .other])
        #expect(try rules("ar").integerCategories == [.zero, .one, .two, .few, .many, .other])
    }

    @Test func selection() throws {
        let ru = try rules("ru")
        #expect([1, 2, 5, 21].map { ru.category(for: Int64($0)) } == [.one, .few, .many, .one])
        #expect(ru.category(for: 1.5) == .other)
        #expect(ru.category(for: 1.0) == .one)
        let ar = try rules("ar")
        #expect([0, 1, 2, 3, 11, 100].map { ar.category(for: Int64($0)) } == [.zero, .one, .two, .few, .many, .other])
        let pl = try rules("pl")
        #expect([1, 2, 5, 22].map { pl.category(for: Int64($0)) } == [.one, .few, .many, .few])
        let fr = try rules("fr")
        #expect([0, 1, 2].map { fr.category(for: Int64($0)) } == [.one, .one, .other])
        #expect(fr.category(for: 1_000_000) == .many)
        let en = try rules("en")
        #expect(en.category(for: 1.0, fractionDigits: 1) == .other) // "1.0 items"
        #expect(en.category(for: 1.0, fractionDigits: 0) == .one)
        #expect(try rules("ja").category(for: 1) == .other)
        #expect(en.category(for: .nan) == .other)
    }

    /// Plural messages formatted by ICU with the locale's categories (inline patterns: no translation wording).
    @Test func pluralOutputs() throws {
        let ru = "{n, plural, one {# день} few {# дня} many {# дней} other {# дня}}"
        #expect(try formatPattern(ru, "ru", ["n": 1]) == "1 день")
        #expect(try formatPattern(ru, "ru", ["n": 2]) == "2 дня")
        #expect(try formatPattern(ru, "ru", ["n": 5]) == "5 дней")
        #expect(try formatPattern(ru, "ru", ["n": 21]) == "21 день")
        #expect(try formatPattern(ru, "ru", ["n": 1.5]) == "1,5 дня")

        let ar = "{n, plural, zero {zero #} one {one #} two {two #} few {few #} many {many #} other {other #}}"
        let arabic = try [0, 1, 2, 3, 11, 100].map { try formatPattern(ar, "ar", ["n": .integer(Int64($0))]) }
        #expect(arabic == ["zero ٠", "one ١", "two ٢", "few ٣", "many ١١", "other ١٠٠"])

        let pl = "{n, plural, one {one #} few {few #} many {many #} other {other #}}"
        let polish = try [1, 2, 5, 22].map { try formatPattern(pl, "pl", ["n": .integer(Int64($0))]) }
        #expect(polish == ["one 1", "few 2", "many 5", "few 22"])
        #expect(try formatPattern(pl, "pl", ["n": 1.5]) == "other 1,5")

        let fr = "{n, plural, one {one #} many {many #} other {other #}}"
        let french = try [0, 1, 2].map { try formatPattern(fr, "fr", ["n": .integer(Int64($0))]) }
        #expect(french == ["one 0", "one 1", "other 2"])
        #expect(try formatPattern(fr, "fr", ["n": 1_000_000]) == "many 1\u{202F}000\u{202F}000")

        let ja = "{n, plural, other {# 件}}"
        #expect(try formatPattern(ja, "ja", ["n": 1]) == "1 件")
        #expect(try formatPattern(ja, "ja", ["n": 1234]) == "1,234 件")
    }

    @Test func exactCasesBeatCategories() throws {
        let en = "{count, plural, =0 {No unread messages} one {# unread message} other {# unread messages}}"
        #expect(try formatPattern(en, "en", ["count": 0]) == "No unread messages")
        #expect(try formatPattern(en, "en", ["count": 1]) == "1 unread message")
        #expect(try formatPattern(en, "en", ["count": 2]) == "2 unread messages")
        // ar: =0 wins over the `zero` category.
        let ar = "{n, plural, =0 {لا شيء} zero {zero #} one {one #} two {two #} few {few #} many {many #} other {other #}}"
        #expect(try formatPattern(ar, "ar", ["n": 0]) == "لا شيء")
        // =1 beats `one`, and selectordinal uses ordinal rules.
        #expect(try formatPattern("{n, plural, =1 {exactly one} one {one #} other {#}}", "en", ["n": 1]) == "exactly one")
        #expect(try formatPattern("{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", "en", ["n": 22]) == "22nd")
    }
}
