import CICU
import Locking

/// A locale's CLDR cardinal plural rules (ICU `PluralRules`), cached per process (up to 256 tags): the first
/// request for a locale opens the rules (~1.6 µs), later ones are a dictionary lookup. Safe from any thread.
public final class PluralRules: @unchecked Sendable {
    // @unchecked: the ICU object is only read after creation (`PluralRules::select` is const) and is
    // closed only in deinit.
    private let handle: OpaquePointer
    /// The canonical tag the rules were opened for.
    public let tag: String
    /// Every category of the locale, in CLDR order (ja: [other]; ru: [one, few, many, other]).
    public let categories: [PluralCategory]
    /// The categories the integers 0…1,000 select — what a message about a count can ever need.
    public let integerCategories: [PluralCategory]

    private init(handle: OpaquePointer, tag: String) {
        self.handle = handle
        self.tag = tag
        self.categories = PluralCategory.list(ICUText.string(capacity: 64) { lookd_plural_rules_keywords(handle, $0, $1) } ?? "other")
        self.integerCategories = PluralCategory.list(
            ICUText.string(capacity: 64) { lookd_plural_rules_integer_keywords(handle, 1_000, $0, $1) } ?? "other")
    }

    deinit { lookd_plural_rules_close(handle) }

    /// The rules of a supported locale. Never nil in practice (ICU has rules for all 50).
    public static func forLocale(_ locale: LocaleTag) -> PluralRules? { forLocale(locale.conventionsIdentifier) }

    /// The rules of any BCP 47 tag; a language ICU has no rules for gets the root rules (only `other`).
    /// Nil when `tag` is not well-formed.
    public static func forLocale(_ tag: String) -> PluralRules? {
        if let cached = cache.withLock({ $0[tag] }) { return cached }
        var status: Int32 = 0
        guard let handle = ICUText.withUTF8(tag, { lookd_plural_rules_open($0, $1, &status) }) else { return nil }
        let rules = PluralRules(handle: handle, tag: tag)
        return cache.withLock { cache in
            if let raced = cache[tag] { return raced }
            // Bounded: arbitrary tags from outside must not grow the cache without limit.
            if cache.count < maximumCached { cache[tag] = rules }
            return rules
        }
    }

    /// At most this many tags' rules are kept; later ones are opened per call.
    static let maximumCached = 256
    private static let cache = LockedValue<[String: PluralRules]>([:])

    /// The category of an integer (ru: 1 → one, 2 → few, 5 → many, 21 → one).
    public func category(for value: Int64) -> PluralCategory {
        let keyword = ICUText.string(capacity: 16) { lookd_plural_rules_select_int(handle, value, $0, $1) }
        return keyword.flatMap(PluralCategory.init(rawValue:)) ?? .other
    }

    /// The category of a number as it is shown with `fractionDigits` visible fraction digits, or, when nil,
    /// with as many as its shortest decimal form has (ru: 1.5 → other; en: 1.0 with 1 digit → other).
    /// Non-finite numbers give `.other`.
    public func category(for value: Double, fractionDigits: Int? = nil) -> PluralCategory {
        guard value.isFinite else { return .other }
        let digits = Int32(clamping: fractionDigits ?? -1)
        let keyword = ICUText.string(capacity: 16) { lookd_plural_rules_select_double(handle, value, digits, $0, $1) }
        return keyword.flatMap(PluralCategory.init(rawValue:)) ?? .other
    }
}
