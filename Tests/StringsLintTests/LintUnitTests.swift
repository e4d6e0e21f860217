import Foundation
@testable import StringsLint
import StableJSON
import Strings
import Testing

/// The pieces under the fixtures: positions through escapes, UTF-8, bidi pairing, plural coverage, edge cases.
@Suite(.timeLimit(.minutes(10))) struct LintUnitTests {
    func document(_ text: String) -> CatalogDocument { CatalogDocument(bytes: Array(text.utf8)) }

    @Test func positionsThroughEscapes() throws {
        // Line 2: `  "k": "a\"\u00e9\uD83D\uDE00\n{x"` — scalars a " é 😀 \n { x.
        let doc = document("{\n  \"k\": \"a\\\"\\u00e9\\uD83D\\uDE00\\n{x\"\n}")
        let value = try #require(doc.entries.first).value
        #expect(value.value == "a\"é😀\n{x")
        #expect(value.quote == SourcePosition(line: 2, column: 8))
        let columns = (0..<7).map { value.position(ofScalar: $0).column }
        #expect(columns == [9, 10, 12, 18, 30, 32, 33])
        #expect(value.position(ofScalar: 7).column == 34) // the closing quote
    }

    @Test func columnsCountScalarsNotBytes() throws {
        let doc = document("{\"ключ\": \"значение\", \"b\": \"x\"}")
        #expect(doc.entries.map(\.keyPosition.column) == [2, 22])
        #expect(doc.entries[1].value.quote.column == 27)
    }

    @Test func syntaxErrorPositionMapsThroughEscapes() throws {
        // The pattern `"{na!me}`: ICU fails at the name (offset 2); the file writes `\"` (two columns) before it.
        let findings = try lintInline(["en": #"{"k": "\"{name}"}"#, "de": #"{"k": "\"{na!me}"}"#])
        let syntax = try #require(findings.first { $0.check == .syntaxError })
        #expect(syntax.file == "de.json")
        #expect(syntax.position == SourcePosition(line: 1, column: 11))
    }

    @Test func typesAndStylesOnlyMessageFormatChecks() throws {
        let source = #"{"k": "Total: {n, number}"}"#
        for bad in [#"{"k": "Gesamt: {n, nombre}"}"#, #"{"k": "Gesamt: {n, number, ::bogus-skeleton}"}"#] {
            let findings = try lintInline(["en": source, "de": bad])
            #expect(findings.map(\.check) == [.syntaxError], "\(bad)")
            #expect(findings.first?.position == SourcePosition(line: 1, column: 17), "\(bad)")
        }
        #expect(try lintInline(["en": source, "de": #"{"k": "Gesamt: {n, number, integer}"}"#]).isEmpty)
    }

    @Test func oneCatalogsRepeatedTypedArgumentsAreEachChecked() throws {
        // The same bad skeleton in two messages and the same good style in two: each bad one is reported, at its
        // argument (column 17 of each line: `{"a": "Gesamt: {` is 16 columns), whatever was checked before it.
        let source = #"{"a": "Total: {n, number}", "b": "Total: {n, number}", "c": "Total: {n, number}", "d": "Total: {n, number}"}"#
        let translation = """
            {"a": "Gesamt: {n, number, ::bogus-skeleton}",
             "b": "Gesamt: {n, number, integer}",
             "c": "Gesamt: {n, number, ::bogus-skeleton}",
             "d": "Gesamt: {n, number, integer}"}
            """
        let findings = try lintInline(["en": source, "de": translation]).filter { $0.check == .syntaxError }
        #expect(findings.map(\.key) == ["a", "c"])
        #expect(findings.map(\.position) == [SourcePosition(line: 1, column: 17), SourcePosition(line: 3, column: 17)])
    }

    @Test func aValueBuiltInMemoryCountsItsScalarsWhenAsked() {
        // G r ü ß e, a space, 👋 and its skin-tone modifier: 8 scalars; the position past the end is the closing
        // quote's, 1 + 8 columns after the opening one.
        let token = JSONStringToken(value: "Grüße 👋🏽", quote: SourcePosition(line: 3, column: 5), scalarPositions: nil, scalarCount: nil)
        #expect(token.scalarCount == 8)
        #expect(token.position(ofScalar: 100) == SourcePosition(line: 3, column: 14))
        #expect(token.position(ofScalar: 7) == SourcePosition(line: 3, column: 13))
        #expect(token.contentStart == SourcePosition(line: 3, column: 6))
        #expect(token.position(ofScalar: -2) == SourcePosition(line: 3, column: 6))
    }

    @Test func invalidUTF8() {
        for bytes: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF]] {
            let all = [UInt8(ascii: "a")] + bytes
            #expect(all.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0) } == 1, "\(bytes)")
        }
        let good = Array("añ€😀".utf8)
        #expect(good.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0) } == nil)
    }

    @Test func jsonErrorsAndShapes() {
        #expect(document("{\"a\": \"x\",}").problems.first?.position == SourcePosition(line: 1, column: 11))
        #expect(document("[\"a\"]").problems.first?.message.contains("top level") == true)
        #expect(document("{\"a\": 1}").problems.first?.key == "a")
        #expect(document("{\"a\": \"x\ty\"}").problems.first?.message.contains("raw control character U+0009") == true)
        #expect(document("\u{FEFF}{\"a\": \"x\"}").entries.first?.keyPosition == SourcePosition(line: 1, column: 2))
        let nested = document("{\"a\": {\"message\": \"x\", \"message\": \"y\"}}")
        #expect(nested.duplicates.first?.path == ["a"])
        #expect(nested.entries.first?.message == "y")
    }

    @Test func bidiPairing() {
        #expect(TextChecks.unbalancedBidi("a\u{2067}b\u{2069}c") == nil)
        #expect(TextChecks.unbalancedBidi("\u{202B}a\u{202C}\u{2068}b\u{2069}") == nil)
        #expect(TextChecks.unbalancedBidi("x\u{2069}")?.offset == 1)
        #expect(TextChecks.unbalancedBidi("\u{2066}\u{202A}a\u{2069}")?.offset == 1) // embedding left open inside the isolate
        #expect(TextChecks.unbalancedBidi("\u{2066}a\u{202C}\u{2069}")?.offset == 2)  // PDF with an isolate on top
    }

    @Test func exactCasesCoverIntegerCategories() throws {
        // en `one` is only 1: `=1` covers it. ru `one` is 1, 21, 31…: `=1` does not.
        let en = try lintInline(["en": #"{"k": "{n, plural, =1 {one} other {# many}}"}"#])
        #expect(en.isEmpty)
        let ru = try lintInline(["en": #"{"k": "{n, plural, one {# x} other {# xs}}"}"#,
                                 "ru": #"{"k": "{n, plural, =1 {один} few {# x} many {# x} other {# x}}"}"#])
        #expect(ru.map(\.check) == [.missingPluralCategory])
        #expect(ru.first?.message.contains("21") == true)
    }

    @Test func pluralCategoriesComeFromICU() throws {
        let ar = try #require(PluralCoverage.forLocale("ar"))
        #expect(ar.categories == [.zero, .one, .two, .few, .many, .other])
        #expect(ar.integers[.few]?.prefix(3) == [3, 4, 5])
        let fr = try #require(PluralCoverage(tag: "fr"))
        #expect(fr.integers[.many] == nil && fr.categories.contains(.many))
        #expect(fr.gaps(keys: ["one", "other"]).count == 1)
        let de = try #require(PluralCoverage(tag: "de"))
        guard case .unreachable(let index)? = de.gaps(keys: ["one", "few", "other"]).first else {
            Issue.record("few in de is unreachable")
            return
        }
        #expect(index == 1)
    }

    @Test func ordinalsUseOrdinalRules() throws {
        // English ordinals: one (1st, 21st), two (2nd), few (3rd), other. French: one (1er), other.
        let en = try #require(PluralCoverage.forLocale("en", ordinal: true))
        #expect(en.categories == [.one, .two, .few, .other])
        #expect(en.integers[.two]?.prefix(3) == [2, 22, 32])
        let source = #"{"k": "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}"}"#
        #expect(try lintInline(["en": source, "fr": #"{"k": "{n, selectordinal, one {#er} other {#e}}"}"#]).isEmpty)
        let findings = try lintInline(["en": #"{"k": "{n, selectordinal, one {#st} few {#rd} other {#th}}"}"#,
                                       "fr": #"{"k": "{n, selectordinal, one {#er} few {#e} other {#e}}"}"#])
        #expect(findings.map(\.check) == [.missingPluralCategory, .unreachablePluralCategory])
        #expect(findings.map(\.file) == ["en.json", "fr.json"])
        #expect(findings.first?.message.contains("'two', which en selects for 2, 22, 32") == true)
    }

    @Test func argumentRulesAndTypes() throws {
        let source = #"{"k": "{n, plural, one {# file} other {# files}} by {who}"}"#
        // A plain {n} next to the plural is fine; a different type is not.
        #expect(try lintInline(["en": source, "de": #"{"k": "{n, plural, one {{n} Datei} other {# Dateien}} von {who}"}"#]).isEmpty)
        let changed = try lintInline(["en": source, "de": #"{"k": "{n, select, one {Datei} other {Dateien}} von {who}"}"#])
        #expect(changed.map(\.check) == [.argumentType])
        let dropped = try lintInline(["en": source, "de": #"{"k": "{n, plural, one {# Datei} other {# Dateien}}"}"#])
        #expect(dropped.map(\.check) == [.argumentMismatch])
    }

    @Test func punctuationAcrossScripts() throws {
        let source = #"{"a": "Done.", "b": "Sure?", "c": "Wait…"}"#
        #expect(try lintInline(["en": source, "ja": #"{"a": "完了。", "b": "本当に？", "c": "お待ちください…"}"#]).isEmpty)
        #expect(try lintInline(["en": source, "ar": #"{"a": "تم.", "b": "هل أنت متأكد؟", "c": "انتظر..."}"#]).isEmpty)
        #expect(try lintInline(["en": source, "el": #"{"a": "Έγινε.", "b": "Σίγουρα;", "c": "Περιμένετε…"}"#]).isEmpty)
        #expect(try lintInline(["en": source, "th": #"{"a": "เสร็จแล้ว", "b": "แน่ใจไหม?", "c": "รอสักครู่…"}"#]).isEmpty)
        let wrong = try lintInline(["en": source, "de": #"{"a": "Fertig!", "b": "Sicher?", "c": "Moment…"}"#])
        #expect(wrong.map(\.check) == [.endPunctuation])
        // The subject names the source's ending, then the translation's, by their case names.
        #expect(wrong.map(\.subject) == ["fullStop->exclamation"])
        let more = try lintInline(["en": #"{"a": "Done", "b": "Wait…", "c": "Note:", "d": "Sure?"}"#,
                                   "de": #"{"a": "Fertig?", "b": "Moment.", "c": "Hinweis", "d": "Sicher!"}"#])
        #expect(more.compactMap(\.subject).sorted() == ["colon->none", "ellipsis->fullStop", "none->question", "question->exclamation"])
    }

    /// A catalog's messages are found in the source near the place after the previous one first (up to eight places
    /// on), by hashing otherwise; worked out by hand over keys k0…k19: k0 at 0 (next 1), k3 three places on (next 4),
    /// k2 behind (next 3), k12 nine places on, past the reach (next 13), x nowhere (next stays), k13 at 13 (next 14),
    /// k19 five places on (next 20), k0 (next 1).
    @Test func sourceMessagesAreFoundInOrderOrByKey() throws {
        let keys = (0..<20).map { "k\($0)" }
        let document = try #require(CatalogDocument(entries: keys.map { ($0, "text \($0)", nil) }))
        let source = SourceCatalog(document: document, tag: "en")
        var cursor = SourceCatalog.Cursor()
        var found: [String] = []
        for key in ["k0", "k3", "k2", "k12", "x", "k13", "k19", "k0"] {
            found.append(source.message(key, cursor: &cursor)?.entry.message ?? "none")
            found.append(source.message("k\(found.count / 2 + 100)", cursor: &cursor)?.entry.message ?? "-") // absent: the cursor stays
        }
        #expect(found.filter { $0 != "-" } == ["text k0", "text k3", "text k2", "text k12", "none", "text k13", "text k19", "text k0"])
        // After k0 the next place is 1: k1 is found there.
        #expect(source.message("k1", cursor: &cursor)?.index == 1)
    }

    /// One argument on each side, worked out by hand: the same name and type (a style aside) is no finding, another
    /// type is `argument-type`, another name an extra and a missing argument.
    @Test func singleArgumentsAgainstTheSource() throws {
        let source = #"{"a": "{arg1, number, integer} Dateien", "b": "{arg1, number} MB", "c": "Hi {name}", "d": "{n} x", "e": "{n} of {n, number}", "f": "{n} and {n, number}"}"#
        let found = try lintInline(["en": source, "de": #"{"a": "{arg1, number} Dateien", "b": "{arg1} MB", "c": "Hallo {nom}", "d": "{n} x", "e": "{n, number} x", "f": "{n}"}"#])
        #expect(found.map(\.check) == [.argumentType, .argumentMismatch, .argumentMismatch, .argumentType])
        // The missing argument is placed at the text's start, the extra one at its use, further along the same line; a
        // source argument used twice, plain and as a number, is a number (`e` agrees, `f` does not).
        #expect(found.map(\.subject) == ["arg1", "missing:name", "extra:nom", "n"])
    }

    /// Edges next to an argument, worked out by hand: a placeholder at an edge is neither whitespace nor punctuation,
    /// whitespace or punctuation after the last argument or before the first is read.
    @Test func edgesNextToArguments() throws {
        let source = #"{"a": "{arg1} files.", "b": " {arg1}", "c": "{arg1}: {arg2} ", "d": "Hi {arg1}", "e": "{arg1}?", "f": "Go {arg1} ..."}"#
        let found = try lintInline(["en": source, "de": #"{"a": "{arg1} Dateien", "b": "{arg1}", "c": "{arg1}: {arg2}", "d": "Hi {arg1}.", "e": "{arg1}", "f": "Los {arg1}.."}"#])
        #expect(found.map { $0.key ?? "" } == ["a", "b", "c", "d", "e", "f"])
        #expect(found.map(\.subject) == ["fullStop->none", "leading", "trailing", "none->fullStop", "question->none", "ellipsis->fullStop"])
        #expect(try lintInline(["en": source, "de": #"{"a": "{arg1} Dateien.", "b": " {arg1}", "c": "{arg1}: {arg2} ", "d": "Hi {arg1}", "e": "{arg1}?", "f": "Los {arg1} ..."}"#]).isEmpty)
        // A full-width ending after the last argument stands for the source's trailing space; a full stop after an
        // argument is not an ellipsis however the text before the argument ends.
        #expect(try lintInline(["en": #"{"a": "Note {arg1}: ", "b": "Wait... {arg1}."}"#, "ja": #"{"a": "メモ {arg1}：", "b": "待って... {arg1}。"}"#]).isEmpty)
    }

    @Test func finalPunctuationAndEdgesFromTheLastScalar() {
        // Worked out by hand: trailing whitespace and closing quotes or brackets are skipped; `...` is an ellipsis,
        // `..` a full stop; Greek's question mark is `;`.
        let cases: [(String, String, TextChecks.FinalPunctuation)] = [
            ("Done.", "de", .fullStop), ("Wait...", "de", .ellipsis), ("Wait..", "de", .fullStop), ("…", "de", .ellipsis),
            ("Sure?", "de", .question), ("Τι;", "el", .question), ("Was;", "de", .none), ("Hi!", "de", .exclamation),
            ("Note:", "de", .colon), ("Say \"hi.\")", "de", .fullStop), ("Done. ", "de", .fullStop), ("完了。", "ja", .fullStop),
            ("ok", "de", .none), ("", "de", .none), ("a\u{7}", "de", .none), ("(Ja!)", "de", .exclamation), ("50 %", "de", .none),
            ("Warte. ..", "de", .fullStop), ("“Fertig…” ", "de", .ellipsis), ("„Fertig…“", "de", .none), ("本当に？」", "ja", .question), ("x．", "ja", .fullStop),
        ]
        for (text, language, expected) in cases {
            #expect(TextChecks.finalPunctuation(text, language: language) == expected, "\(text)")
        }
        #expect(TextChecks.edgeWhitespace(" a") == TextChecks.Edges(leading: true, trailing: false))
        #expect(TextChecks.edgeWhitespace("a\t") == TextChecks.Edges(leading: false, trailing: true))
        #expect(TextChecks.edgeWhitespace("über ") == TextChecks.Edges(leading: false, trailing: true))
        #expect(TextChecks.edgeWhitespace("\u{3000}x\u{A0}") == TextChecks.Edges(leading: true, trailing: true))
        #expect(TextChecks.edgeWhitespace("") == TextChecks.Edges(leading: false, trailing: false))
    }

    @Test func controlsAndBidiControlsAreFoundInAnyWordOfTheBytes() {
        // Worked out by hand from the bytes: C0 controls (tab and newline too), DEL, C1 (C2 80…C2 9F) and the bidi
        // embeddings, overrides and isolates (E2 80 AA…AE, E2 81 A6…A9) are found wherever they fall among eight-byte
        // words; a no-break space (C2 A0), U+2070 (E2 81 B0) and plain text are not.
        let filler = "abcdefgh"
        for control in ["\u{0}", "\t", "\n", "\u{1F}", "\u{7F}", "\u{85}", "\u{9F}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}"] {
            for before in 0...17 {
                let text = String(filler.prefix(before % 8)) + String(repeating: filler, count: before / 8) + control + filler + filler
                #expect(TextChecks.mayHaveControlOrBidi(text), "\(before) \(control.unicodeScalars.first!.value)")
            }
        }
        for clean in ["", "Open settings number 0.", String(repeating: "Grüße ~ ", count: 4), "50\u{A0}% \u{2070} \u{202F}", String(repeating: "}", count: 17)] {
            #expect(!TextChecks.mayHaveControlOrBidi(clean), "\(clean)")
        }
    }

    @Test func findingsSortForTheReportStably() {
        func finding(_ file: String, _ line: Int, _ check: LintCheck, _ message: String, key: String) -> LintFinding {
            LintFinding(check: check, severity: .error, file: file, position: SourcePosition(line: line, column: 1), locale: "de",
                        key: key, message: message, subject: nil)
        }
        // By file, line, check code (`argument-mismatch` before `whitespace`), message; the three equal in all four
        // keep the order they were given in (keys c, a, b).
        let given = [
            finding("de.json", 2, .whitespace, "m", key: "late"), finding("de.json", 1, .whitespace, "same", key: "c"),
            finding("de.json", 1, .whitespace, "same", key: "a"), finding("ar.json", 9, .whitespace, "z", key: "first"),
            finding("de.json", 1, .argumentMismatch, "z", key: "check"), finding("de.json", 1, .whitespace, "same", key: "b"),
            finding("de.json", 1, .whitespace, "earlier", key: "message"),
        ]
        #expect(given.sortedForReport().map { $0.key ?? "" } == ["first", "check", "message", "c", "a", "b", "late"])
    }

    @Test func missingSourceIsNotAFinding() {
        #expect(throws: LintError.missingSource(tag: "en")) {
            try Linter().lint([CatalogInput(name: "de.json", bytes: Array("{}".utf8))])
        }
        #expect(throws: LintError.self) {
            try Linter().lint([CatalogInput(name: "en.json", bytes: Array("{".utf8))])
        }
    }

    @Test func displayTextFollowsICU() throws {
        let pattern = try LintPattern.parse("It''s '{'{n}'}' {n, plural, one {# a} other {# bb}}! Ünïcödé 😀").get()
        #expect(pattern.displayText == "It's {\u{FFFC}} # bb! Ünïcödé 😀")
        #expect(pattern.displayCodePoints == pattern.displayText.unicodeScalars.count)
        #expect(pattern.arguments.map(\.name) == ["n", "n"])
        #expect(pattern.arguments.map(\.type) == [.string, .plural])
        #expect(pattern.selectors.map(\.key) == ["one", "other"])
        #expect(pattern.selectors.map(\.argument) == [1, 1])
        #expect(pattern.arguments.map(\.offset) == [10, 17])
    }

    @Test func bigPatternsGrowTheBuffers() throws {
        let cases = (0..<60).map { "k\($0) {{name\($0)} \(String(repeating: "é", count: 40))}" }.joined(separator: " ")
        let pattern = try LintPattern.parse("{x, select, \(cases) other {∅}}").get()
        #expect(pattern.arguments.count == 61)
        #expect(pattern.selectors.count == 61)
        #expect(pattern.selectors.last?.argument == 0)
        #expect(pattern.arguments.last?.name == "name59")
        #expect(pattern.displayCodePoints == 1 + 1 + 40)
    }
}
