import Strings

/// How ICU's `=0` branch and the platforms' `zero` variant map onto each other, losslessly.
///
/// Apple's runtime uses a plural `zero` entry for the value 0 in every language; Android (and ICU's `zero`
/// keyword) select `zero` only in languages whose CLDR rules have that category (of the 50, Arabic). So:
/// - a language without a `zero` category: ICU `=0` ⇄ `zero`;
/// - a language with one (ar): `zero` ⇄ ICU `zero`, and also `=0` with the same text when the source message
///   has `=0` (ar's `zero` is exactly the value 0, so both say the same). A translation that disagrees (only
///   one of the two, or different texts) cannot be written without losing one, and is refused.
/// Other exact values (`=1`, `=2`, …) have no platform equivalent and are refused.
enum ZeroCaseRule {
    /// The platform variants of an ICU plural's branches, in CLDR order.
    static func variants<Content>(of cases: [(key: String, content: Content)], locale: CatalogLocale, sourceHasExactZero: Bool,
                                  key: String, same: (Content, Content) -> Bool) throws -> [(category: PluralCategory, content: Content)] {
        let hasZeroCategory = hasZero(locale)
        var variants: [(category: PluralCategory, content: Content)] = []
        var exactZero: Content?
        for branch in cases {
            if branch.key == "=0" {
                exactZero = branch.content
                if !hasZeroCategory { variants.append((.zero, branch.content)) }
            } else if let category = PluralCategory(rawValue: branch.key) {
                variants.append((category, branch.content))
            } else {
                throw ConversionError(key: key, locale: locale.identifier, reason: "plural branch '\(branch.key)' has no equivalent (only =0 and the CLDR categories map)")
            }
        }
        if hasZeroCategory {
            let zero = variants.first { $0.category == .zero }?.content
            switch (sourceHasExactZero, exactZero, zero) {
            case (false, nil, _), (true, nil, nil): break
            case (true, let exact?, let zero?) where same(exact, zero): break
            case (false, .some, _):
                throw ConversionError(key: key, locale: locale.identifier, reason: "=0 branch where the source has none: in this language 'zero' already means 0, keep only 'zero'")
            default:
                throw ConversionError(key: key, locale: locale.identifier, reason: "=0 and zero must both be present with the same text (both mean 0 here; the platforms have one 'zero' entry)")
            }
        }
        return variants.sorted { $0.category < $1.category }
    }

    /// The ICU branch keys of platform variants, `=0` (and `zero`) first, then CLDR order.
    static func cases<Content>(of variants: [(category: PluralCategory, content: Content)], locale: CatalogLocale,
                               sourceHasExactZero: Bool) -> [(key: String, content: Content)] {
        let hasZeroCategory = hasZero(locale)
        return variants.sorted { $0.category < $1.category }.flatMap { variant -> [(key: String, content: Content)] in
            guard variant.category == .zero else { return [(variant.category.rawValue, variant.content)] }
            if !hasZeroCategory { return [("=0", variant.content)] }
            return sourceHasExactZero ? [("=0", variant.content), ("zero", variant.content)] : [("zero", variant.content)]
        }
    }

    static func hasZero(_ locale: CatalogLocale) -> Bool {
        PluralRules.forLocale(locale.conventionsIdentifier)?.categories.contains(.zero) ?? false
    }
}
