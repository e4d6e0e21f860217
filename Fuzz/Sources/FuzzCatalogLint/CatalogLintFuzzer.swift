import FuzzInput
import StringsLint

/// A small real-looking source catalog: a plain message, a placeholder, a plural and a select.
private let sourceCatalog = Array("""
{
  "header.close": {"message": "Close", "description": "Button that closes the chat.", "maxLength": 24},
  "welcome.body": {"message": "Send a message and the {appName} team will reply right here."},
  "thread.unread": {"message": "{count, plural, one {# unread message} other {# unread messages}}"},
  "header.status": {"message": "{status, select, online {Online} away {Away} other {Offline}}"}
}
""".utf8)

/// The whole input is one catalog file. It is linted twice: as `de.json` against the fixed English source,
/// and as the source `en.json` with the fixed catalog as `fr.json`. Every reporter renders each report.
/// `LintError` is a refused input; a crash, leak or hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func catalogLintFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let catalog = FuzzInput(data, size).all
    let linter = Linter()
    let runs: [[CatalogInput]] = [
        [CatalogInput(name: "en.json", bytes: sourceCatalog), CatalogInput(name: "de.json", bytes: catalog)],
        [CatalogInput(name: "en.json", bytes: catalog), CatalogInput(name: "fr.json", bytes: sourceCatalog)],
    ]
    for catalogs in runs {
        guard let findings = try? linter.lint(catalogs) else { continue }
        let report = LintReport(findings: findings, fileCount: catalogs.count)
        let reporters: [any LintReporter] = [TextReporter(), JSONReporter(), GitHubReporter(), SARIFReporter()]
        for reporter in reporters { _ = reporter.render(report) }
    }
    return 0
}

/// The executable's entry point (see `FuzzerEntry`): libFuzzer's driver over this target's input function.
@_cdecl("FuzzCatalogLint_main")
public func fuzzCatalogLintMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzerEntry.run(argc, argv, catalogLintFuzzerTestOneInput)
}
