import Foundation
import StableJSON
import Strings

/// `lookd locales [--json] [--pseudo]`: the 50 locales (with `--pseudo`, then the pseudo-locales, flagged), with
/// direction, native name and plural categories.
enum LocalesCommand: Command {
    static let name = "locales"
    static let summary = "list the 50 locales (and, with --pseudo, en-XA and ar-XB): direction, native name, plural categories"
    static let usage = "lookd locales [--json] [--pseudo]\n  --pseudo also lists the pseudo-locales en-XA and ar-XB (layout testing; chosen only by their exact tag)"

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["json", "pseudo"])
        guard arguments.positionals.isEmpty else { throw UsageError("takes no arguments\n\(usage)") }
        let infos = arguments.flag("pseudo") ? LocaleInfo.allIncludingPseudo : LocaleInfo.all
        if arguments.flag("json") {
            let objects: [JSONValue] = infos.map { info in
                .object(["locale": .string(info.locale.identifier), "direction": .string(info.direction.rawValue),
                         "nativeName": .string(info.nativeName), "pseudo": .bool(info.isPseudo),
                         "pluralCategories": .array(info.pluralCategories.map { .string($0.rawValue) }),
                         "fallbackChain": .array(FallbackChain.chain(for: info.locale).map { .string($0.identifier) })])
            }
            Console.write(Data(JSONWriter.bytes(.array(objects), pretty: true) + Array("\n".utf8)))
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
