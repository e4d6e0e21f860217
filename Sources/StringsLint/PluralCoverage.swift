import CICU
import Strings
import CICU
import Locking

/// What a locale's plural rules (from the ICU in use, never a table) demand of a `plural` argument — or, with
/// ordinal rules, of a `selectordinal` — and how its keys measure up against them. Built once per locale and kind.
struct PluralCoverage: Sendable {
    /// Every category the locale has.
    let categories: Set<PluralCategory>
    /// The integers 0…1,000 that select each category (categories no such integer selects are absent).
    let integers: [PluralCategory: [Int]]
    /// "one, few, many, other", for messages.
    let categoryNames: String
    let ordinal: Bool

    static let integerLimit = 1_000

    /// Nil when ICU cannot open rules for `tag`.
    init?(tag: String, ordinal: Bool = false) {
        var selected = [UInt8](repeating: 5, count: Self.integerLimit + 1)
        let mask = selected.withUnsafeMutableBufferPointer { buffer in
            ICUText.withUTF8(tag) { lookd_lint_plural_categories($0, $1, ordinal ? 1 : 0, Int32(Self.integerLimit), buffer.baseAddress) }
        }
        guard mask >= 0 else { return nil }
        let all = PluralCategory.allCases
        let present = all.indices.filter { mask & (1 << $0) != 0 }.map { all[$0] }
        categories = Set(present)
        var integers: [PluralCategory: [Int]] = [:]
        for (value, index) in selected.enumerated() {
            integers[all[Int(min(index, 5))], default: []].append(value)
        }
        self.integers = integers
        categoryNames = present.map(\.rawValue).joined(separator: ", ")
        self.ordinal = ordinal
    }

    private static let cache = LockedValue<[String: PluralCoverage?]>([:])

    /// The coverage of `tag` (cardinal or ordinal), computed once per process.
    static func forLocale(_ tag: String, ordinal: Bool = false) -> PluralCoverage? {
        let key = ordinal ? tag + "/ordinal" : tag
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let coverage = PluralCoverage(tag: tag, ordinal: ordinal)
        cache.withLock { $0[key] = .some(coverage) }
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
