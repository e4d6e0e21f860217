import Foundation
import LookdServer

/// One `lookd` subcommand. Exit codes: 0 success, 1 the command's own failure (e.g. lint errors),
/// 2 usage or I/O problems.
protocol Command: Sendable {
    static var name: String { get }
    static var summary: String { get }
    static var usage: String { get }
    static func run(_ arguments: Arguments) throws -> Int32
}

/// A usage or input problem: printed as `lookd <command>: <message>` on stderr, exit 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum CommandLineTool {
    /// Every subcommand, in the order `lookd help` lists them.
    static let commands: [any Command.Type] = [
        ResolveCommand.self,
        FetchCommand.self,
        MatchCommand.self,
        FormatCommand.self,
        LocalesCommand.self,
        PreviewCommand.self,
        ReportCommand.self,
        LintCommand.self,
        ExportCommand.self, ImportCommand.self,
        ServeCommand.self,
        StoreCommand.self,
        KeygenCommand.self,
    ]

    static func run(_ argv: [String]) -> Int32 {
        guard let name = argv.first, name != "help", name != "--help", name != "-h" else {
            printHelp()
            return argv.isEmpty ? 2 : 0
        }
        if name == "--version" || name == "version" {
            print("lookd \(lookdVersion)")
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            Console.error("lookd: unknown command '\(name)'. Run 'lookd help' for the list.")
            return 2
        }
        do {
            let arguments = try Arguments(Array(argv.dropFirst()))
            if arguments.flag("help") {
                print(command.usage)
                return 0
            }
            return try command.run(arguments)
        } catch {
            let report = FailureReport.of(error)
            Console.error("lookd \(name): \(report.message)")
            return report.exitCode
        }
    }

    static func printHelp() {
        var text = "lookd \(lookdVersion) — look and localization resolution for the pingfront chat\n\nUsage: lookd <command> [options]\n\nCommands:\n"
        for command in commands {
            text += "  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += "\nRun 'lookd <command> --help' for a command's options."
        print(text)
    }
}

