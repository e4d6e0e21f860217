import LookResolver
import Testing

/// The answers' bound on diagnostics (docs/http-api.md, "Bounds": the first 99, then one `diagnostics_truncated`
/// warning "and N more diagnostics"), the rule the daemon and LookClient share. Expected values worked by hand.
@Suite("Diagnostics bound", .timeLimit(.minutes(10)))
struct DiagnosticBoundTests {
    /// `count` diagnostics: the first 150 in the code layer, the rest in the inferred one.
    static func diagnostics(_ count: Int) -> [Diagnostic] {
        (0..<count).map { Diagnostic(layer: $0 < 150 ? .code : .inferred, field: "f\($0)", code: .unknownField, message: "m\($0)") }
    }

    @Test("at most 100 diagnostics are kept as they are")
    func underTheBound() {
        #expect(Diagnostic.answerLimit == 100)
        for count in [0, 1, 99, 100] { #expect(Diagnostic.bounded(Self.diagnostics(count)) == Self.diagnostics(count)) }
    }

    @Test("over the bound: the first 99, then the notice in the layer of the first one left out")
    func overTheBound() throws {
        let bounded = Diagnostic.bounded(Self.diagnostics(101))
        #expect(bounded.count == 100 && Array(bounded.prefix(99)) == Array(Self.diagnostics(101).prefix(99)))
        let notice = try #require(bounded.last)
        // 101 − 99 = 2 left out; the 100th (index 99) is in the code layer.
        #expect(notice == Diagnostic(layer: .code, field: "", code: .diagnosticsTruncated, message: "and 2 more diagnostics", severity: .warning))
        // 1,304 − 99 = 1,205 left out, the first of them (index 99) still in the code layer.
        #expect(Diagnostic.bounded(Self.diagnostics(1_304)).last?.message == "and 1,205 more diagnostics")
        // Index 99 in the inferred layer when the code layer has fewer.
        let shifted = Array(Self.diagnostics(300).dropFirst(60))
        #expect(Diagnostic.bounded(shifted).last?.layer == .inferred && Diagnostic.bounded(shifted).last?.message == "and 141 more diagnostics")
    }
}
