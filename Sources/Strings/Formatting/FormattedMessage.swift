/// A formatted message and where it came from.
public struct FormattedMessage: Sendable, Hashable {
    /// The text, ready to show.
    public let text: String
    /// The message key.
    public let key: String
    /// The locale asked for.
    public let locale: LocaleTag
    /// The catalog that supplied the pattern: `locale` itself, a parent in its chain, or English.
    public let servedBy: LocaleTag
}
