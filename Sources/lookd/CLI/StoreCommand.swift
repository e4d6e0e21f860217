import LookdServer

/// `lookd store copy --from URL --to URL`: moves every app and version between stores (README and
/// docs/deployment.md: from one box on SQLite to a fleet on PostgreSQL).
enum StoreCommand: Command {
    static let name = "store"
    static let summary = "copy every app and version between stores (sqlite:DIR → postgresql://…)"
    static let usage = """
        lookd store copy --from URL --to URL
          Copies every app and every version (numbers and timestamps kept) from one store to another, e.g.
          --from sqlite:./.lookd --to postgresql://lookd@db.internal/lookd. Idempotent: run it again after an
          interruption. Verifies that every version arrived and each app's latest version matches, then prints
          a summary. Stop the lookd using a sqlite: source first (it holds the directory's lock).
          Exit 0 copied and verified, 1 verification failed, 2 usage or a store that cannot be opened.
        """

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["from", "to"])
        guard arguments.positionals == ["copy"] else { throw UsageError("the only store command is: lookd store copy --from URL --to URL") }
        guard let from = arguments.value("from"), let to = arguments.value("to") else { throw UsageError("store copy needs --from URL and --to URL") }
        do {
            let summary = try StoreCopy.run(from: from, to: to)
            print("lookd store copy: \(summary)")
            return 0
        } catch let failure as StoreCopy.VerificationFailure {
            Console.error("lookd store copy: verification failed: \(failure)")
            return 1
        }
    }
}
