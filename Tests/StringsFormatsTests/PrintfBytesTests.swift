import Testing
@testable import StringsFormats

/// printf texts read as UTF-8 bytes (`PrintfDialect.parse`, `PrintfSpecifierScan`, `PrintfSpecifier.read`) next to
/// text outside ASCII: the pieces, argument numbers and quoted errors are worked out by hand from the printf rules.
@Suite(.timeLimit(.minutes(10))) struct PrintfBytesTests {
    static let textAndInteger = ArgumentLegend(entries: [.init(name: "arg1", type: nil, style: nil), .init(name: "arg2", type: "number", style: "integer")])

    static func parse(_ text: String, legend: ArgumentLegend = textAndInteger, countArgument: Int? = nil) throws -> [PrintfMessage.Piece] {
        try PrintfDialect.apple.parse(text, legend: legend, countArgument: countArgument, key: "k", locale: "de")
    }

    static func reason(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch let error as ConversionError {
            return error.problems.first?.reason
        } catch {
            return "\(error)"
        }
    }

    @Test("text outside ASCII around specifiers is kept whole")
    func piecesAroundSpecifiers() throws {
        #expect(try Self.parse("Grüße %1$@ — %2$lld 🎉 100%% ✓") == [.text("Grüße "), .argument(1), .text(" — "), .argument(2), .text(" 🎉 100% ✓")])
        #expect(try Self.parse("%@ 日本語") == [.argument(1), .text(" 日本語")])
        #expect(try Self.parse("Zeile%nzwei %@") == [.text("Zeile\nzwei "), .argument(1)])
        #expect(try Self.parse("%arg Äpfel", legend: .init(entries: [.init(name: "arg1", type: "plural", style: nil)]), countArgument: 1) == [.count, .text(" Äpfel")])
    }

    @Test("a malformed specifier is quoted with the whole scalar after its %")
    func malformedQuoted() {
        #expect(Self.reason("%@ 100%é") == "malformed specifier '%é' (a percent sign is '%%' in a string with arguments)")
        #expect(Self.reason("%@ 5% 🎉") == "malformed specifier '% ' (a percent sign is '%%' in a string with arguments)")
        #expect(Self.reason("%1$🎉 %2$lld") == "malformed specifier '%1$🎉' (a percent sign is '%%' in a string with arguments)")
        #expect(Self.reason("%@ über %") == "specifier at the end of '%@ über %' is incomplete")
        #expect(Self.reason("%3$@ ü") == "specifier '%3$@' refers to argument 3; the source has 2")
        #expect(Self.reason("ü %@ %@") == "argument 2 is written '%@', the source passes it as '%lld'")
    }

    /// `N` of `%N$` read from its bytes as `Int` reads digits: 0 and 12 are argument numbers (out of range here),
    /// a number past `Int.max` (9,223,372,036,854,775,807: 19 digits) is none, so its digits are a width and the
    /// `$` after them no conversion.
    @Test("argument numbers are read from the digits' bytes")
    func argumentNumbers() throws {
        #expect(try Self.parse("%2$lld × %1$@") == [.argument(2), .text(" × "), .argument(1)])
        #expect(try Self.parse("%02$lld %001$@") == [.argument(2), .text(" "), .argument(1)])
        #expect(Self.reason("%0$@") == "specifier '%0$@' refers to argument 0; the source has 2")
        #expect(Self.reason("%12$@") == "specifier '%12$@' refers to argument 12; the source has 2")
        #expect(Self.reason("%9223372036854775807$@") == "specifier '%9223372036854775807$@' refers to argument 9223372036854775807; the source has 2")
        #expect(Self.reason("%9223372036854775808$@") == "malformed specifier '%9' (a percent sign is '%%' in a string with arguments)")
        #expect(Self.reason("%99999999999999999999$@") == "malformed specifier '%9' (a percent sign is '%%' in a string with arguments)")
    }

    @Test("a date conversion's suffix may be a letter outside ASCII; lengths count scalars and bytes")
    func dateSuffix() throws {
        let specifier = try #require(PrintfSpecifier.read(Substring("tä rest")))
        #expect(specifier.conversion == "tä")
        #expect(specifier.category == .other)
        #expect(specifier.length == 2)
        #expect(specifier.utf8Length == 3)
        #expect(PrintfSpecifier.read(Substring("t€")) == nil)
    }

    @Test("the scan numbers arguments in order, skips %% and a % that starts nothing, and reads %N$")
    func scanNumbers() {
        var found: [(Int, String, Bool)] = []
        var sequential = 1
        PrintfSpecifierScan.forEach(in: "ä %@ 50% ö %% %2$lld %#@items@ %.1f", sequential: &sequential) { number, specifier, isSubstitution in
            found.append((number, specifier.conversion, isSubstitution))
        }
        // `%@` is 1; `% ` starts nothing; `%2$lld` names 2; `%#@items@` is the next in order (2), `%.1f` 3.
        #expect(found.map(\.0) == [1, 2, 2, 3])
        #expect(found.map(\.1) == ["@", "lld", "@", "f"])
        #expect(found.map(\.2) == [false, false, true, false])
        #expect(sequential == 4)
    }
}
