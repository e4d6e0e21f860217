import Foundation
import Strings
import Testing

@Suite(.timeLimit(.minutes(10))) struct FormattingTests {
    @Test func missingAndWrongArgumentsAreClearErrors() throws {
        let plural = "{count, plural, one {# photo} other {# photos}}"
        #expect(throws: FormatError.missingArgument(name: "count", key: nil)) { try formatPattern(plural, "en", [:]) }
        #expect(throws: FormatError.wrongArgumentType(name: "count", key: nil, expected: "a number (integer or double)", got: "string")) {
            try formatPattern(plural, "en", ["count": "five"])
        }
        #expect(throws: FormatError.wrongArgumentType(name: "d", key: nil, expected: "a date", got: "integer")) {
            try formatPattern("{d, date, ::dMMM}", "en", ["d": 5])
        }
        #expect(throws: FormatError.wrongArgumentType(name: "s", key: nil, expected: "a string", got: "integer")) {
            try formatPattern("{s, select, a {A} other {B}}", "en", ["s": 1])
        }
        // Nested arguments are required too.
        #expect(throws: FormatError.missingArgument(name: "name", key: nil)) {
            try formatPattern("{n, plural, one {{name} has one} other {{name} has #}}", "en", ["n": 2])
        }
        // Extra arguments are ignored.
        #expect(try formatPattern("Hi", "en", ["unused": 1]) == "Hi")
        // Through a catalog the error names the key.
        #expect(throws: FormatError.missingArgument(name: "count", key: "thread.unread")) {
            try realLocalizer.format(key: "thread.unread", locale: .english)
        }
    }

    @Test func invalidPatternsReportWhere() {
        do {
            _ = try MessageFormatter(pattern: "Hello {name", locale: "en")
            Issue.record("an unterminated argument parsed")
        } catch let FormatError.invalidPattern(_, error, offset) {
            #expect(error.hasPrefix("U_"))
            #expect(offset >= 0 && offset <= 11)
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(throws: FormatError.self) { try MessageFormatter(pattern: "{n, plural, one {x}}", locale: "en") }
    }

    @Test func selectAndNumbers() throws {
        let status = "{status, select, online {Online} away {Away} other {Offline}}"
        #expect(try formatPattern(status, "en", ["status": "away"]) == "Away")
        #expect(try formatPattern(status, "en", ["status": "gone"]) == "Offline")
        #expect(try formatPattern("{n, number}", "de", ["n": 1234567.5]) == "1.234.567,5")
        #expect(try formatPattern("{n, number}", "ar", ["n": 1234567]) == "١٬٢٣٤٬٥٦٧")
        #expect(try formatPattern("{n, number}", "fa", ["n": 1234567]) == "۱٬۲۳۴٬۵۶۷")
        #expect(try formatPattern("{n, number, integer}", "en", ["n": 4000]) == "4,000")
    }

    /// Short and long outputs, ASCII, two- and three-byte UTF-8 and surrogate pairs survive the shim's UTF-8 writer
    /// (both its unchecked fast path and the bounds-checked path that asks for a bigger buffer).
    @Test func outputTextRoundTrips() throws {
        let options = FormatOptions(isolateStrings: false)
        for text in ["", "a", "é", "€", "😀", "Ünïcødé — 日本語 👩🏽‍💻",
                     String(repeating: "é😀a日", count: 300), String(repeating: "x", count: 5_000)] {
            #expect(try formatPattern("[{t}]", "en", ["t": .string(text)], options: options) == "[" + text + "]")
        }
    }

    @Test func datesAreFormattedByICUForTheLocale() throws {
        let arguments: [String: Argument] = ["d": .date(november12)]
        #expect(try formatPattern("{d, date, ::dMMM}", "de", arguments) == "12. Nov.")
        #expect(try formatPattern("{d, date, ::dMMM}", "ja", arguments) == "11月12日")
        #expect(try formatPattern("{d, date, ::dMMM}", "ar", arguments) == "١٢ نوفمبر")
        #expect(try formatPattern("{d, date, ::EEEEdMMMM}", "de", arguments) == "Mittwoch, 12. November")
        #expect(try formatPattern("{d, date, ::EEEEdMMMM}", "ja", arguments) == "11月12日水曜日")
        #expect(try formatPattern("{d, date, ::EEEEdMMMM}", "ar", arguments) == "الأربعاء، ١٢ نوفمبر")
    }

    @Test func stringArgumentsAreIsolated() throws {
        // An English name inside Arabic text, a Hebrew name inside English text.
        #expect(try formatPattern("{name} يكتب…", "ar", ["name": "Anna Smith"]) == "\u{2068}Anna Smith\u{2069} يكتب…")
        #expect(try formatPattern("{name} is typing…", "en", ["name": "דנה כהן"]) == "\u{2068}דנה כהן\u{2069} is typing…")
        // Off by option.
        #expect(try formatPattern("{name} is typing…", "en", ["name": "דנה"], options: .init(isolateStrings: false)) == "דנה is typing…")
        // select keys are never isolated (they choose a branch).
        #expect(try formatPattern("{s, select, a {A} other {B}}", "en", ["s": "a"]) == "A")
        // Directional controls inside a name cannot break out of the isolate.
        #expect(BidiIsolation.isolate("evil\u{2069}\u{202E}name") == "\u{2068}evilname\u{2069}")
        // Numbers in {name} positions are formatted, not isolated.
        #expect(try formatPattern("{n}", "en", ["n": 1500]) == "1,500")
    }

    @Test func concurrentFormattingMatchesSequential() throws {
        let cases: [(String, LocaleTag, [String: Argument])] = LocaleTag.all.flatMap { locale -> [(String, LocaleTag, [String: Argument])] in
            [("thread.unread", locale, ["count": 0]), ("thread.unread", locale, ["count": 21]),
             ("composer.counter", locale, ["remaining": 3]), ("thread.typing", locale, ["name": "Ana"]),
             ("plan.renews", locale, ["product": "Ledgerly Plus", "date": .date(november12)]),
             ("header.status", locale, ["status": "away"])]
        }
        // Fresh localizer so the threads also race to fill the caches.
        let localizer = try Localizer(directory: catalogDirectory)
        let sequentialLocalizer = try Localizer(directory: catalogDirectory)
        let sequential = try cases.map { try sequentialLocalizer.format(key: $0.0, locale: $0.1, arguments: $0.2).text }

        let results = ResultBox(threads: 8)
        let group = DispatchGroup()
        for thread in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                var texts: [String] = []
                for round in 0..<5 {
                    // Each thread walks the cases from a different start so they collide on different messages.
                    for offset in 0..<cases.count {
                        let item = cases[(offset + thread * 37 + round * 11) % cases.count]
                        texts.append((try? localizer.format(key: item.0, locale: item.1, arguments: item.2).text) ?? "<error>")
                    }
                }
                results.store(thread, texts)
                group.leave()
            }
        }
        group.wait()
        for thread in 0..<8 {
            let texts = results.texts(thread)
            #expect(texts.count == cases.count * 5)
            var index = 0
            for round in 0..<5 {
                for offset in 0..<cases.count {
                    let expected = sequential[(offset + thread * 37 + round * 11) % cases.count]
                    if texts[index] != expected {
                        Issue.record("thread \(thread): \(texts[index]) != \(expected)")
                    }
                    index += 1
                }
            }
        }
    }
}

/// Collects each thread's results.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [[String]]
    init(threads: Int) { storage = Array(repeating: [], count: threads) }
    func store(_ thread: Int, _ texts: [String]) { lock.withLock { storage[thread] = texts } }
    func texts(_ thread: Int) -> [String] { lock.withLock { storage[thread] } }
}
