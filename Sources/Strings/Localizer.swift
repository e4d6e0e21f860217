import Foundation

/// The Strings facade: negotiation, fallback chains, formatting from a directory of catalogs, and locale
/// facts. One instance per catalog directory, shared by every thread; all caches are built lazily, once.
///
/// ```swift
/// let strings = try Localizer(directory: URL(fileURLWithPath: "Resources/Localizations"))
/// let locale = strings.negotiate(language: nil, acceptLanguage: "ru-RU,ru;q=0.9,en;q=0.5")   // ru
/// let unread = try strings.format(key: "thread.unread", locale: locale, arguments: ["count": 5])
/// unread.text       // "5 непрочитанных сообщений"
/// unread.servedBy   // ru
/// ```
public final class Localizer: Sendable {
    /// The loaded catalogs.
    public let catalogs: CatalogSet
    /// The negotiator (the process-wide one unless given).
    public let negotiator: LocaleNegotiator

    /// Parsed messages by (locale, key): each is parsed on first use (~10 µs) and reused; reads take no lock.
    private let messages: MessageTable

    public init(catalogs: CatalogSet, negotiator: LocaleNegotiator = .shared) {
        self.catalogs = catalogs
        self.negotiator = negotiator
        messages = MessageTable(keys: catalogs.source.keys)
    }

    /// Loads the catalogs of `directory` (see `CatalogSet.load`). Throws `CatalogError`.
    public convenience init(directory: URL) throws {
        self.init(catalogs: try CatalogSet.load(directory: directory))
    }

    // MARK: Negotiation

    /// The best of the 50 for one tag; see `LocaleNegotiator.negotiate(tag:)`. Never fails (English when nothing matches).
    public func negotiate(tag: String) -> LocaleTag { negotiator.negotiate(tag: tag) }

    /// The best of the 50 for tags in preference order.
    public func negotiate(tags: [String]) -> LocaleTag { negotiator.negotiate(tags: tags) }

    /// The best of the 50 for an `Accept-Language` header.
    public func negotiate(acceptLanguage: String) -> LocaleTag { negotiator.negotiate(acceptLanguage: acceptLanguage) }

    /// An explicit language (the SDK's `language` setting) beats `Accept-Language`.
    public func negotiate(language: String?, acceptLanguage: String?) -> LocaleTag {
        negotiator.negotiate(language: language, acceptLanguage: acceptLanguage)
    }

    // MARK: Fallback and catalogs

    /// The catalog chain of a locale, itself first, ending in English (CLDR parent locales).
    public func fallbackChain(for locale: LocaleTag) -> [LocaleTag] { FallbackChain.chain(for: locale) }

    /// The merged catalog of a locale: every source key with the pattern its chain supplies.
    public func catalogs(for locale: LocaleTag) -> MergedCatalog { MergedCatalog(locale: locale, catalogs: catalogs) }

    // MARK: Formatting

    /// Formats the message `key` for `locale`.
    ///
    /// The pattern comes from the first catalog in `fallbackChain(for: locale)` that has the key with a pattern
    /// ICU can parse; the result says which one served it. A pattern from a parent of the same language
    /// (es-419 → es) is formatted with `locale`'s conventions; one from another language (English) with that
    /// language's own, so its plural branches and digits agree with its text.
    /// - Throws: `FormatError.unknownKey` when the source has no such key; `.noUsablePattern` when no catalog
    ///   in the chain parses; `.missingArgument` / `.wrongArgumentType` for bad arguments; never partial text.
    public func format(key: String, locale: LocaleTag, arguments: [String: Argument] = [:],
                       options: FormatOptions = .default) throws -> FormattedMessage {
        let resolved = try resolve(key: key, locale: locale)
        let text = try resolved.formatter.format(arguments, options: options, key: key)
        return FormattedMessage(text: text, key: key, locale: locale, servedBy: resolved.servedBy)
    }

    /// The argument names and types the message `key` takes in `locale` (from the pattern that serves it).
    public func structure(key: String, locale: LocaleTag) throws -> MessageStructure {
        try resolve(key: key, locale: locale).formatter.structure
    }

    private func resolve(key: String, locale: LocaleTag) throws -> MessageTable.Entry {
        guard let slot = messages.slot(key: key, locale: locale) else { throw FormatError.unknownKey(key: key) }
        if let entry = messages.entry(slot) { return entry }
        var problems: [String] = []
        for link in FallbackChain.chain(for: locale) {
            guard let pattern = catalogs.pattern(key: key, locale: link), !pattern.isEmpty else { continue }
            let conventions = Self.sameLanguage(link, locale) ? locale : link
            do {
                let formatter = try MessageFormatter(pattern: pattern, locale: conventions.conventionsIdentifier)
                return messages.store(MessageTable.Entry(formatter: formatter, servedBy: link), in: slot)
            } catch {
                problems.append("\(link): \(error)")
            }
        }
        throw FormatError.noUsablePattern(key: key, locale: locale, problems: problems)
    }

    private static func sameLanguage(_ a: LocaleTag, _ b: LocaleTag) -> Bool {
        LanguageTag.subtags(a.conventionsIdentifier).language == LanguageTag.subtags(b.conventionsIdentifier).language
    }

    // MARK: Locale facts

    /// `.rightToLeft` for ar, he, fa, ur and the pseudo-locale ar-XB; `.leftToRight` for the others (ICU).
    public static func direction(of locale: LocaleTag) -> TextDirection { LocaleInfo.of(locale).direction }

    /// The locale's CLDR plural categories, in CLDR order (ICU); English's for the pseudo-locales.
    public static func pluralCategories(of locale: LocaleTag) -> [PluralCategory] { LocaleInfo.of(locale).pluralCategories }

    /// The locale's name in its own language (ICU).
    public static func nativeName(of locale: LocaleTag) -> String { LocaleInfo.of(locale).nativeName }
}
