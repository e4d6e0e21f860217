import Foundation
import Strings

/// `lookd match TAG…` / `lookd match --accept-language "…"`: the chosen locale and its fallback chain.
enum MatchCommand: Command {
    static let name = "match"
    static let summary = "negotiate one of the 50 locales and print its fallback chain"
    static let usage = """
        lookd match TAG...                        several TAGs are one preference list, most preferred first
        lookd match --accept-language "HEADER"    an HTTP Accept-Language header
        lookd match --language TAG --accept-language "HEADER"   the explicit language beats the header
        Options: --json
        Prints the chosen locale (one of the 50; English when nothing matches) and its chain. The pseudo-locales
        en-XA and ar-XB are chosen only when asked for by exactly their tag (first in the list or header).
        """

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["accept-language", "language", "json"])
        let negotiator = LocaleNegotiator.shared
        let header = arguments.value("accept-language")
        let language = arguments.value("language")
        let tags = arguments.positionals
        let chosen: LocaleTag
        switch (tags.isEmpty, header, language) {
        case (false, nil, nil):
            chosen = negotiator.negotiate(tags: tags)
        case (true, .some(let header), let language):
            chosen = negotiator.negotiate(language: language, acceptLanguage: header)
        case (true, nil, .some(let language)):
            chosen = negotiator.negotiate(language: language, acceptLanguage: nil)
        case (true, nil, nil):
            throw UsageError("give TAG..., --accept-language \"HEADER\" or --language TAG\n\(usage)")
        default:
            throw UsageError("give either TAG... or --accept-language/--language, not both")
        }
        let chain = FallbackChain.chain(for: chosen)
        if arguments.flag("json") {
            let object: [String: Any] = ["locale": chosen.identifier, "chain": chain.map(\.identifier),
                                         "direction": Localizer.direction(of: chosen).rawValue, "pseudo": chosen.isPseudo]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            Console.write(data + Data("\n".utf8))
        } else {
            print("locale: \(chosen.identifier)")
            print("chain:  \(chain.map(\.identifier).joined(separator: " → "))")
        }
        return 0
    }
}
