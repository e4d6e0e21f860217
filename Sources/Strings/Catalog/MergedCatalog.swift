/// What a locale shows for every source key once its fallback chain is applied.
public struct MergedCatalog: Sendable {
    public struct Entry: Sendable, Hashable {
        /// The MessageFormat pattern.
        public let pattern: String
        /// The catalog in the chain that supplied it (the locale itself, a parent, or English).
        public let servedBy: LocaleTag
    }

    /// The locale asked for.
    public let locale: LocaleTag
    /// The chain that was walked, the locale first and English last.
    public let chain: [LocaleTag]
    /// Every source key → its pattern and the catalog that supplied it.
    public let entries: [String: Entry]

    /// Merges `catalogs` along `FallbackChain.chain(for: locale)`: for each source key, the first catalog in
    /// the chain that has a non-empty pattern for it.
    public init(locale: LocaleTag, catalogs: CatalogSet) {
        self.locale = locale
        chain = FallbackChain.chain(for: locale)
        var entries: [String: Entry] = [:]
        for key in catalogs.source.keys {
            for link in chain {
                if let pattern = catalogs.pattern(key: key, locale: link), !pattern.isEmpty {
                    entries[key] = Entry(pattern: pattern, servedBy: link)
                    break
                }
            }
        }
        self.entries = entries
    }

    /// The keys served by a catalog other than the locale's own (missing translations).
    public var fallbackKeys: [String] {
        entries.filter { $0.value.servedBy != locale }.keys.sorted()
    }
}
