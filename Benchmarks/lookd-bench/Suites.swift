/// One benchmark suite: `lookd-bench NAME` runs it alone.
struct BenchmarkSuite: Sendable {
    let name: String
    let run: @Sendable () -> Void

    init(name: String, run: @escaping @Sendable () -> Void) {
        self.name = name
        self.run = run
    }

    /// A suite whose body throws: an error ends it with `name: outcome: error` on standard output (`outcome`:
    /// "stopped", or "skipped" where the error means something it needs is missing).
    init(name: String, onError outcome: String, _ body: @escaping @Sendable () throws -> Void) {
        self.init(name: name) {
            do {
                try body()
            } catch {
                print("\(name): \(outcome): \(error)")
            }
        }
    }
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
