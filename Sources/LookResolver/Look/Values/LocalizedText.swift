/// A team-supplied or built-in text that may differ per language.
public enum LocalizedText: Hashable, Sendable {
    /// One text for every language.
    case text(String)
    /// Texts by BCP 47 tag (`"de"`, `"pt-BR"`); languages not listed use `en`, else the first tag in sorted order.
    case localized(LanguageTexts)
    /// A built-in text: the catalog's message for `key` in the person's language; `english` is the source text.
    case catalog(key: String, english: String)

    /// The text for the first tag of `tags` (most preferred first) that has one, matching tags case-insensitively
    /// and then by language alone; else English; else the first entry by sorted tag. For ``catalog(key:english:)``
    /// returns the English text: localizing it is the catalogs' job.
    public func text(preferring tags: [String]) -> String {
        switch self {
        case .text(let text):
            return text
        case .catalog(_, let english):
            return english
        case .localized(let texts):
            for tag in tags {
                if let text = texts.first(ignoringCase: tag) { return text }
            }
            for tag in tags {
                // The tag's first subtag (its first run without "-", as split's first part), compared ignoring case.
                let language = String(tag.drop { $0 == "-" }.prefix { $0 != "-" })
                if let text = texts.first(ignoringCase: language) { return text }
            }
            if let english = texts.first(ignoringCase: "en") { return english }
            return texts.tags.first.flatMap { texts[$0] } ?? ""
        }
    }
}
