import Testing
@testable import StringsFormats

/// printf messages of text and arguments written straight as ICU patterns (`PrintfMessage.plainPattern`): each
/// expected pattern is worked out by hand from Apple's printf specifiers (`%@` an object, `%lld` an integer, `%.1f`
/// a double, `%1$@` by position, `%%` a percent sign) and ICU MessageFormat's quoting (`'{'`, `'}'`, an apostrophe
/// doubled only right before a brace or another apostrophe), then checked against the ICU message path it replaces.
@Suite(.timeLimit(.minutes(10))) struct PrintfPlainPatternTests {
    static func pattern(_ text: String, source: String) throws -> String? {
        let legend = StringCatalogDocument.inferredLegend(texts: [source])
        let pieces = try PrintfDialect.apple.parse(text, legend: legend, countArgument: nil, key: "k", locale: "de")
        let message = PrintfMessage(template: pieces, plurals: [])
        let plain = try message.plainPattern(legend: legend, locale: .english, key: "k")
        #expect(plain == (try message.icuMessage(legend: legend, locale: .english, sourceExactZero: [], key: "k").pattern), "\(text)")
        // Written as the text is read, by a writer that wrote other texts before.
        #expect(Self.written(text, legend: legend) == plain, "\(text)")
        return plain
    }

    /// `text` written by a writer that wrote a longer pattern before (its buffer is written over).
    static func written(_ text: String, legend: ArgumentLegend) -> String? {
        var writer = PrintfPlainPatternWriter()
        _ = writer.pattern(of: String(repeating: "Vorher {x} '", count: 8) + "%@", legend: legend, dialect: .apple)
        return writer.pattern(of: text, legend: legend, dialect: .apple)
    }

    /// `PrintfPlainPatternWriter` gives up where `parse` throws, so the caller parses to report why; by hand: the
    /// source `%@ x %lld` has arguments 1 (text) and 2 (integer).
    @Test("the writer gives no pattern for what parse refuses, and writes after a refused text as before")
    func writerRefusals() throws {
        var writer = PrintfPlainPatternWriter()
        let legend = StringCatalogDocument.inferredLegend(texts: ["%@ x %lld"])
        #expect(writer.pattern(of: "Lange Einleitung {a} %@ und %lld", legend: legend, dialect: .apple) == "Lange Einleitung '{'a'}' {arg1} und {arg2, number, integer}")
        #expect(writer.pattern(of: "%3$@ fehlt", legend: legend, dialect: .apple) == nil) // argument 3 of 2
        #expect(writer.pattern(of: "%@ und %@", legend: legend, dialect: .apple) == nil) // argument 2 is an integer
        #expect(writer.pattern(of: "%#@n@ Dateien", legend: legend, dialect: .apple) == nil) // no substitution here
        #expect(writer.pattern(of: "50% fertig %@", legend: legend, dialect: .apple) == nil) // `% f`: a lone percent sign
        #expect(writer.pattern(of: "%@ ok", legend: legend, dialect: .apple) == "{arg1} ok")
        #expect(writer.pattern(of: "Zeile%nzwei %@", legend: legend, dialect: .apple) == "Zeile\nzwei {arg1}")
        // Without arguments in the source every `%` is text, and a text of its own is quoted whole.
        #expect(writer.pattern(of: "100% {x}", legend: ArgumentLegend(entries: []), dialect: .apple) == "100% '{'x'}'")
        for text in ["%3$@ fehlt", "%@ und %@", "%#@n@ Dateien", "50% fertig %@"] {
            #expect(throws: ConversionError.self) { try PrintfDialect.apple.parse(text, legend: legend, countArgument: nil, key: "k", locale: "de") }
        }
    }

    @Test("specifiers become the source's arguments, typed as the source's specifiers are")
    func arguments() throws {
        #expect(try Self.pattern("%@ mag deinen Beitrag 5.", source: "%@ liked your post 5.") == "{arg1} mag deinen Beitrag 5.")
        #expect(try Self.pattern("%lld neue Nachrichten", source: "%lld new messages") == "{arg1, number, integer} neue Nachrichten")
        #expect(try Self.pattern("%2$@ wurde von %1$@ eingeladen.", source: "%1$@ invited %2$@.") == "{arg2} wurde von {arg1} eingeladen.")
        #expect(try Self.pattern("%.1f MB, 50%% fertig", source: "Download %.1f MB, 50%% done") == "{arg1, number} MB, 50% fertig")
        #expect(try Self.pattern("Einstellungen öffnen", source: "Open settings") == "Einstellungen öffnen")
        #expect(try Self.pattern("", source: "Open settings") == "")
    }

    @Test("braces are quoted, an apostrophe doubled only before a brace or at the end of text an argument follows")
    func quoting() throws {
        #expect(try Self.pattern("It's {braced} %@", source: "%@") == "It's '{'braced'}' {arg1}")
        #expect(try Self.pattern("Bob's '%@'", source: "%@") == "Bob's ''{arg1}'")
        #expect(try Self.pattern("''%@", source: "%@") == "''''{arg1}")
        // A text of its own (no arguments: `%` is a percent sign) is quoted the same; an apostrophe at its end
        // is followed by nothing and stays single.
        #expect(try Self.pattern("Klammern {so} und 's, 100%", source: "Braces") == "Klammern '{'so'}' und 's, 100%")
        #expect(try Self.pattern("Rock 'n' roll'", source: "Music") == "Rock 'n' roll'")
        #expect(try Self.pattern("''{x}", source: "Quotes") == "'''''{'x'}'")
    }

    @Test("a text's specifiers are found wherever they are, by hand")
    func piecesAroundSpecifiers() throws {
        let legend = StringCatalogDocument.inferredLegend(texts: ["%@ x %lld"])
        func pieces(_ text: String) throws -> [PrintfMessage.Piece] {
            try PrintfDialect.apple.parse(text, legend: legend, countArgument: nil, key: "k", locale: "de")
        }
        #expect(try pieces("Hallo %@, 100%% und %lld") == [.text("Hallo "), .argument(1), .text(", 100% und "), .argument(2)])
        #expect(try pieces("%@%lld") == [.argument(1), .argument(2)])
        let long = String(repeating: "Grüße ", count: 12)
        #expect(try pieces(long + "%@" + long + "%lld" + long) == [.text(long), .argument(1), .text(long), .argument(2), .text(long)])
        #expect(try pieces("%%") == [.text("%")])
    }

    /// Arguments named by their numbers, the first nine from a table, the rest written out; by hand: `%1$@` text,
    /// `%3$.1f` a number, `%12$lld` an integer, 2 and 4…11 unseen (text), argument 2 of the plurals `count`.
    @Test("an inferred legend names its arguments arg1, arg2, …")
    func inferredNames() {
        let legend = StringCatalogDocument.inferredLegend(texts: ["%1$@ %12$lld %3$.1f"], plurals: [2: "count"])
        #expect(legend.entries.map(\.name) == ["arg1", "count", "arg3", "arg4", "arg5", "arg6", "arg7", "arg8", "arg9", "arg10", "arg11", "arg12"])
        #expect(legend.entries.map { "\($0.type ?? "-") \($0.style ?? "-")" } == [
            "- -", "plural -", "number -", "- -", "- -", "- -", "- -", "- -", "- -", "- -", "- -", "number integer",
        ])
    }

    /// By hand: argument 1 is written `%1$@` then `%1$lld` (the last decides: an integer), 2 is named by nothing (text),
    /// 3 is `%.1f` in the second text (a number); a plural numbered 0 names no argument, one numbered 4 adds it.
    @Test("an inferred legend takes each number's last specifier, across texts, and its plurals' numbers")
    func inferredTypes() {
        let legend = StringCatalogDocument.inferredLegend(texts: ["%1$@ und %1$lld", "%3$.1f"], plurals: [0: "none", 4: "n"])
        #expect(legend.entries.map(\.name) == ["arg1", "arg2", "arg3", "n"])
        #expect(legend.entries.map { "\($0.type ?? "-") \($0.style ?? "-")" } == ["number integer", "- -", "number -", "plural -"])
        #expect(StringCatalogDocument.inferredLegend(texts: ["100 % sicher", "%%"]).entries.isEmpty)
    }

    @Test("a plural, or a count outside one, is left to the ICU message path")
    func notPlain() throws {
        let legend = ArgumentLegend(entries: [.init(name: "arg1", type: "plural", style: nil)])
        let plural = PrintfMessage(template: [.plural(1)], plurals: [.init(argument: 1, variants: [.init(category: .other, pieces: [.count])])])
        #expect(try plural.plainPattern(legend: legend, locale: .english, key: "k") == nil)
        #expect(try PrintfMessage(template: [.count], plurals: []).plainPattern(legend: legend, locale: .english, key: "k") == nil)
    }

    @Test("an argument the legend lacks is refused as by the ICU message path")
    func missingArgument() {
        let message = PrintfMessage(template: [.argument(2)], plurals: [])
        #expect(throws: ConversionError.self) { try message.plainPattern(legend: ArgumentLegend(entries: []), locale: .english, key: "k") }
    }
}
