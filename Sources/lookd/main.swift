// lookd's entry point. Nothing else lives here: commands are in CLI/, C callbacks never in this file
// (docs/design.md#the-shims-one-c-target-per-c-library: a @convention(c) callback in main.swift is inferred @MainActor and crashes).
import Foundation

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
