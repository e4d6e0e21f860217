import LookResolver

/// Bounds on what one public request may make the daemon compute and send back, beyond the byte limits of
/// `Limits`. Over an input bound the request is refused (400 `limit_exceeded`); over an output bound the first
/// items are kept and a notice says how many were left out ("and 69,990 more"). See docs/http-api.md.
enum ServiceBounds {
    /// Most keys in one look layer object (a layer has 10 fields; every other key is a diagnostic).
    static let layerKeys = 64
    /// Most JSON values (keys, strings, numbers, …) in one look request body: three full layers with 32 topics
    /// labelled in 100 languages stay under it.
    static let jsonValues = 25_000
    /// Most diagnostics in a resolve, preview, publish or fetch answer; the last one kept is the notice. The rule is
    /// LookResolver's `Diagnostic.bounded`, shared with LookClient's merge.
    static let diagnostics = Diagnostic.answerLimit
    /// Most message keys in one catalog of a `POST /v1/lint` request (the project's own catalogs have ~110).
    static let lintKeysPerCatalog = 2_000
    /// Most findings in a `POST /v1/lint` report; the rest are counted in the summary.
    static let lintFindings = 1_000
}
