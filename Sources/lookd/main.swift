// lookd's entry point. Nothing else lives here: commands are in CLI/, C callbacks never in this file
// (DESIGN.md Fact 5: a @convention(c) callback in main.swift is inferred @MainActor and crashes).
import Foundation

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
