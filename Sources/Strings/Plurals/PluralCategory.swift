/// A CLDR plural category. `allCases` is in CLDR order.
public enum PluralCategory: String, CaseIterable, Sendable, Codable, Comparable {
    case zero, one, two, few, many, other

    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Parses a space-separated keyword list from the shim; unknown words are skipped.
    static func list(_ text: String) -> [PluralCategory] {
        text.split(separator: " ").compactMap { PluralCategory(rawValue: String($0)) }
    }
}
