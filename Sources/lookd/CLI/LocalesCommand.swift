import Foundation
import Strings

/// `lookd locales [--json]`: the 50 locales, then the pseudo-locales (flagged), with direction, native name and
/// plural categories.
enum LocalesCommand: Command {
    static let name = "locales"
    static let summary = "list the 50 locales and the pseudo-locales: direction, native name, plural categories"
    static let usage = "lookd locales [--json]"

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["json"])
        guard arguments.positionals.isEmpty else { throw UsageError("takes no arguments\n\(usage)") }
        let infos = LocaleInfo.allIncludingPseudo
        if arguments.flag("json") {
            let objects: [[String: Any]] = infos.map { info in
                ["locale": info.locale.identifier, "direction": info.direction.rawValue, "nativeName": info.nativeName,
                 "pseudo": info.isPseudo,
                 "pluralCategories": info.pluralCategories.map(\.rawValue),
                 "fallbackChain": FallbackChain.chain(for: info.locale).map(\.identifier)]
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
            Console.write(data + Data("\n".utf8))
            return 0
        }
        for info in infos {
            let columns = [
                info.locale.identifier.padding(toLength: 8, withPad: " ", startingAt: 0),
                info.direction.rawValue,
                info.pluralCategories.map(\.rawValue).joined(separator: ",").padding(toLength: 28, withPad: " ", startingAt: 0),
                // Isolate the name so right-to-left names do not reorder the columns.
                "\u{2068}\(info.nativeName)\u{2069}" + (info.isPseudo ? "  (pseudo)" : ""),
            ]
            print(columns.joined(separator: "  "))
        }
        return 0
    }
}
