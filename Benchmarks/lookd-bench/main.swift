// `make bench`: each suite measures lookd beside an anchor run in the same process and prints ratios.
// No timing assertions anywhere: these numbers are read by people, never checked by tests.
let requested = Set(CommandLine.arguments.dropFirst())
for suite in benchmarkSuites where requested.isEmpty || requested.contains(suite.name) {
    print("== \(suite.name)")
    suite.run()
    print("")
}
