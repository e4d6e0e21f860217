enum ResolveCommand: Command {
    static let name = "resolve"
    static let summary = "resolve a look from its layers (JSON) and print it"
    static let usage = "lookd resolve [FILE|-]"
    static func run(_ arguments: Arguments) throws -> Int32 { throw UsageError("not built yet") }
}
