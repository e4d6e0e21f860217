import LookdServer
/// `lookd keygen [--test] [--count N]`: prints new app keys, one per line (format: Service/AppKey.swift and the README, section `lookd serve`).
enum KeygenCommand: Command {
    static let name = "keygen"
    static let summary = "print a new app key (pk_live_… or, with --test, pk_test_…)"
    static let usage = """
        lookd keygen [--test] [--count N]
          Prints N (default 1) new random app keys, one per line. Keys carry CRC-32 check characters,
          so a mistyped key is refused offline. --test makes pk_test_ keys.
        lookd keygen --check KEY
          Exits 0 when KEY is a well-formed app key, 1 (with the reason) when it is not.
        """

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["test", "count", "check"])
        if let key = arguments.value("check") {
            if let problem = AppKey.problem(key) {
                Console.error("lookd keygen: \(problem)")
                return 1
            }
            print("ok")
            return 0
        }
        let countText = arguments.value("count") ?? "1"
        guard let count = Int(countText), (1...100_000).contains(count) else { throw UsageError("--count takes a number from 1 to 100000") }
        var out = ""
        for _ in 0..<count { out += AppKey.generate(live: !arguments.flag("test")) + "\n" }
        print(out, terminator: "")
        return 0
    }
}
