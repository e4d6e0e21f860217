/// One benchmark suite: `lookd-bench NAME` runs it alone.
struct BenchmarkSuite: Sendable {
    let name: String
    let run: @Sendable () -> Void
}

/// Every suite, in the order `make bench` runs them.
let benchmarkSuites: [BenchmarkSuite] = [
    lookSuite,
    stringsSuite,
    lintSuite,
    stringCatalogLintSuite,
    xcodeXLIFFLintSuite,
    androidLintSuite,
    httpSuite,
    clientSuite,
    storeSuite,
    failoverSuite,
    propagationSuite,
]
