import StableJSON

/// The bound on the diagnostics a look answer carries: one rule, used by the daemon for every answer (resolve,
/// preview, publish, the SDK fetch) and by LookClient for its local merge, so both give the same bytes.
extension Diagnostic {
    /// The most diagnostics an answer carries: 100, the last of them the notice when there were more.
    public static let answerLimit = 100

    /// `diagnostics` as an answer carries them: all of them when there are at most ``answerLimit``; else the first
    /// `answerLimit − 1` and a `diagnostics_truncated` warning saying how many were left out ("and 1,204 more
    /// diagnostics", counted with a comma every three digits), in the layer of the first one left out, with an empty
    /// field. Order is kept. Pure.
    public static func bounded(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard diagnostics.count > answerLimit else { return diagnostics }
        let kept = answerLimit - 1
        let notice = Diagnostic(layer: diagnostics[kept].layer, field: "", code: .diagnosticsTruncated,
                                message: "and \(CountText.grouped(diagnostics.count - kept)) more diagnostics")
        return Array(diagnostics.prefix(kept)) + [notice]
    }
}

extension ResolvedLook {
    /// This look with its diagnostics bounded as an answer carries them (``Diagnostic/bounded(_:)``); the fields and
    /// the palette unchanged.
    public var bounded: ResolvedLook {
        var look = self
        look.diagnostics = Diagnostic.bounded(diagnostics)
        return look
    }
}
