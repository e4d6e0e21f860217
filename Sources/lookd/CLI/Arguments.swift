/// Command-line arguments: `--name value`, `--name=value`, boolean `--flag`, and positionals.
/// A lone `-` is a positional (standard input); `--` ends options.
struct Arguments {
    private(set) var options: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// Options that take no value. Anything else given as `--name` takes the next argument.
    static let booleanFlags: Set<String> = [
        "help", "json", "strict", "default", "pretty", "refresh", "update-baseline", "no-isolate", "quiet", "test", "pseudo", "matrix", "keep-unreadable", "no-purge-keys", "no-prefill",
    ]

    init(_ argv: [String]) throws {
        var index = 0
        var onlyPositionals = false
        while index < argv.count {
            let argument = argv[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("--") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            let body = argument.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                options[String(body[..<equals]), default: []].append(String(body[body.index(after: equals)...]))
            } else if Self.booleanFlags.contains(String(body)) {
                flags.insert(String(body))
            } else {
                guard index < argv.count else { throw UsageError("option --\(body) needs a value") }
                options[String(body), default: []].append(argv[index])
                index += 1
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for `--name`, or nil.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Every value given for a repeatable `--name`.
    func values(_ name: String) -> [String] { options[name] ?? [] }

    /// Fails with a usage error when an option outside `known` was given.
    func rejectUnknown(_ known: Set<String>) throws {
        for name in options.keys.sorted() where !known.contains(name) {
            throw UsageError("unknown option --\(name)")
        }
        for name in flags.sorted() where !known.contains(name) {
            throw UsageError("unknown option --\(name)")
        }
    }
}
