import Foundation
import StableJSON
import LookResolver

/// `lookd resolve [FILE|-]`: layers in, resolved look out.
enum ResolveCommand: Command {
    static let name = "resolve"
    static let summary = "resolve a look from its layers (JSON) and print it"
    static let usage = """
        Usage: lookd resolve [FILE|-] [--pretty]
               lookd resolve --default

        Reads {"dashboard": {...}, "code": {...}, "inferred": {...}} (any layer may be absent) from FILE, or
        standard input for '-' or no FILE, and prints the resolved look as JSON: every field with its value and
        source layer, the light and dark palettes, every contrast adjustment, and a diagnostic for every value
        that was ignored. --default resolves no layers at all (the SDK's defaults). --pretty indents the output.
        Exit 0, or 2 when the input cannot be read or is not JSON of that shape.
        """

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["default", "pretty"])
        let layers = try readLayers(arguments)
        let look = Resolver().resolve(layers)
        let output = arguments.flag("pretty") ? JSONWriter.bytes(look.jsonValue, pretty: true) : look.jsonBytes()
        Console.write(Data(output + Array("\n".utf8)))
        return 0
    }

    /// The layers a command reads: none with `--default`, else FILE (or standard input for '-' or no FILE).
    /// Throws UsageError for extra positionals, unreadable input or input that is not layers JSON.
    static func readLayers(_ arguments: Arguments) throws -> LookLayers {
        let layers: LookLayers
        if arguments.flag("default") {
            guard arguments.positionals.isEmpty else { throw UsageError("--default takes no FILE") }
            layers = LookLayers()
        } else {
            guard arguments.positionals.count <= 1 else { throw UsageError("one FILE at most (or '-' for standard input)") }
            let path = arguments.positionals.first ?? "-"
            let data = try Console.read(path: path)
            do {
                layers = try LookLayers(json: data)
            } catch let error as LookInputError {
                throw UsageError("\(path == "-" ? "standard input" : path): \(error.message)")
            }
        }
        return layers
    }
}
