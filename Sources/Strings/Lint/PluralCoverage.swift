import Synchronization

/// What a locale's plural rules (from the ICU in use, never a table) demand of a `plural` argument, and how a
/// plural's keys measure up against them. Built once per locale and cached.
struct PluralCoverage: Sendable {
    /// Every category the locale has.
    let categories: Set<PluralCategory>
    /// The integers 0…1,000 that select each category (categories no such integer selects are absent).
    let integers: [PluralCategory: [Int]]
    /// "one, few, many, other", for messages.
    let categoryNames: String

    static let integerLimit = 1_000

    /// Nil when ICU cannot open rules for `tag`.
    init?(tag: String) {
        guard let rules = PluralRules.forLocale(tag) else { return nil }
        categories = Set(rules.categories)
        var integers: [PluralCategory: [Int]] = [:]
        for value in 0...Self.integerLimit {
            integers[rules.category(for: Int64(value)), default: []].append(value)
        }
        self.integers = integers
        categoryNames = rules.categories.map(\.rawValue).joined(separator: ", ")
    }

    private static let cache = Mutex<[String: PluralCoverage?]>([:])

    /// The coverage of `tag`, computed once per process.
    static func forLocale(_ tag: String) -> PluralCoverage? {
        if let cached = cache.withLock({ $0[tag] }) { return cached }
        let coverage = PluralCoverage(tag: tag)
        cache.withLock { $0[tag] = .some(coverage) }
        return coverage
    }

    enum Gap {
        /// An integer category lacking (with some integers that select it and no `=n` covers).
        case missingInteger(PluralCategory, examples: [Int])
        /// A category only decimals or numbers above 1,000 select, lacking.
        case missingDecimal(PluralCategory)
        /// A key that is no category of this locale (index into `keys`).
        case unreachable(keyIndex: Int)
    }

    /// The gaps of one plural's keys ("one", "=0", "other", …). `other` itself is ICU's parser's business.
    func gaps(keys: [String]) -> [Gap] {
        var present: [PluralCategory] = []
        var exact: [Int] = []
        var gaps: [Gap] = []
        for (index, key) in keys.enumerated() {
            if key.hasPrefix("=") {
                if let value = Int(key.dropFirst()) { exact.append(value) }
                continue
            }
            if let category = PluralCategory(rawValue: key), categories.contains(category) {
                present.append(category)
            } else {
                gaps.append(.unreachable(keyIndex: index))
            }
        }
        for category in PluralCategory.allCases where category != .other && categories.contains(category) && !present.contains(category) {
            if let selected = integers[category] {
                let uncovered = selected.filter { !exact.contains($0) }
                if !uncovered.isEmpty { gaps.append(.missingInteger(category, examples: Array(uncovered.prefix(3)))) }
            } else {
                gaps.append(.missingDecimal(category))
            }
        }
        return gaps
    }
}
