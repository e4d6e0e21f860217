@testable import StringsLint
import Testing

/// `CatalogChecks.sameArgumentsUsedOnce`, the case of `checkArguments` with nothing to report, worked out by hand: the
/// same names, each used once, of the same types, in any order.
@Suite(.timeLimit(.minutes(10))) struct ArgumentComparisonTests {
    static func same(_ translation: String, _ source: String) throws -> Bool {
        CatalogChecks.sameArgumentsUsedOnce(try LintPattern.parse(translation).get().arguments, try LintPattern.parse(source).get().arguments)
    }

    @Test func sameArgumentsInAnyOrder() throws {
        #expect(try Self.same("{b} wurde von {a} eingeladen", "{a} invited {b}"))
        #expect(try Self.same("{n, number, integer} neue", "{n, number, integer} new"))
        #expect(try Self.same("Einstellungen", "Settings"))
    }

    @Test func anythingElseIsLeftToTheSignatures() throws {
        #expect(try !Self.same("{a} {a}", "{a} {b}")) // a twice, b dropped
        #expect(try !Self.same("{a} {b}", "{a} {a}")) // b extra
        #expect(try !Self.same("{a}", "{a} {b}")) // b dropped
        #expect(try !Self.same("{a, number}", "{a}")) // another type
        #expect(try !Self.same("{b}", "{a}")) // another name
    }
}
