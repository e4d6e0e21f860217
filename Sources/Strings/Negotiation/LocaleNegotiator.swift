import CICU
import Foundation

/// Picks the best of the 50 locales for what a person or device asks for, with CLDR's matcher
/// (ICU `LocaleMatcher`, built once per process from the 50, default English).
///
/// Every method returns one of the 50 and never fails: junk, empty input, `und`, unknown languages and
/// over-long headers all give English. Examples (CLDR 42 / ICU 72): es-MX → es-419, pt → pt-BR,
/// pt-AO → pt-PT, zh-TW → zh-Hant, zh-MO → zh-HK, zh-SG → zh-Hans, no/nn → nb, iw → he, in → id,
/// fr-BE → fr, en-GB → en, sr-Latn → en.
///
/// Pseudo-locales (en-XA, ar-XB) are chosen only when asked for by exactly their tag (any ASCII case, `_` for `-`):
/// as the tag, as the explicit language, as the first of a preference list, or as the most preferred entry of
/// an `Accept-Language` header (a device set to a pseudo-locale sends it first). Anywhere else they are skipped,
/// and no other tag ever negotiates to them ("en-US", "en", "ar", "en-XA-u-nu-latn" and "en-XB" do not).
///
/// Repeated inputs are answered from a bounded memo of recent answers (`NegotiationMemo`). Thread-safe.
public final class LocaleNegotiator: Sendable {
    /// The process-wide negotiator (the matcher costs ~15 µs to build; build it once).
    public static let shared = LocaleNegotiator()

    private let matcher: Matcher
    private let memo: NegotiationMemo

    /// Builds a matcher over the 50 locales, remembering up to 2 × `memoSize` recent answers (0: no memo).
    /// Prefer `shared`.
    public init(memoSize: Int = 512) {
        matcher = Matcher()
        memo = NegotiationMemo(generationSize: memoSize)
    }

    /// The best locale for one BCP 47 tag ("es-MX" → es-419). `_` is read as `-`; surrounding spaces ignored.
    public func negotiate(tag: String) -> LocaleTag {
        memo.answer(.init(kind: .tag, text: tag)) {
            let normalized = LanguageTag.normalizeSeparators(Substring(tag))
            return Self.pseudoLocale(normalized) ?? matcher.best(for: normalized).locale
        }
    }

    /// The best locale for tags in preference order (most preferred first), e.g. a device's language list.
    /// An empty list or one with only junk gives English.
    public func negotiate(tags: [String]) -> LocaleTag {
        guard tags.count > 1 else { return negotiate(tag: tags.first ?? "") }
        let normalized = tags.map { LanguageTag.normalizeSeparators(Substring($0)) }
        // Length-prefixed so that different lists can never share a key (["a,b", "c"] vs ["a", "b,c"]).
        let key = normalized.map { "\($0.utf8.count):\($0)" }.joined()
        return memo.answer(.init(kind: .tagList, text: key)) { best(forPreferences: normalized).locale }
    }

    /// The best locale for an HTTP `Accept-Language` header, read by `AcceptLanguage.parse`
    /// (quality-sorted; malformed entries skipped). An empty or unusable header gives English.
    public func negotiate(acceptLanguage header: String) -> LocaleTag {
        memo.answer(.init(kind: .acceptLanguage, text: header)) { best(forPreferences: AcceptLanguage.parse(header)).locale }
    }

    /// The SDK's rule: an explicit language (the `language` setting) beats `Accept-Language`.
    /// The explicit language wins whenever it is well-formed and matches one of the 50 well enough
    /// (so "en-GB" gives en even when the header asks for German). When it is nil, empty, junk or matches
    /// nothing (e.g. "sr"), the header decides; with neither, English.
    public func negotiate(language: String?, acceptLanguage header: String?) -> LocaleTag {
        if let language, !language.isEmpty {
            let tag = LanguageTag.normalizeSeparators(Substring(language))
            if let pseudo = Self.pseudoLocale(tag) { return pseudo }
            let explicit = matcher.best(for: tag)
            if explicit.matched { return explicit.locale }
        }
        guard let header else { return .english }
        return negotiate(acceptLanguage: header)
    }

    /// Whether `tag` matches one of the 50 well enough (false when the answer is English only by default).
    public func matches(tag: String) -> Bool {
        let normalized = LanguageTag.normalizeSeparators(Substring(tag))
        return Self.pseudoLocale(normalized) != nil || matcher.best(for: normalized).matched
    }

    /// The pseudo-locale whose tag `normalized` is exactly (ASCII letter case aside), else nil. Compares bytes in
    /// place: it runs on every uncached negotiation.
    private static func pseudoLocale(_ normalized: String) -> LocaleTag? {
        guard normalized.utf8.count == 5 else { return nil }
        for locale in LocaleTag.pseudoLocales where normalized.utf8.elementsEqual(locale.identifier.utf8, by: sameIgnoringCase) {
            return locale
        }
        return nil
    }

    private static func sameIgnoringCase(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || (a | 0x20 == b | 0x20 && (0x61...0x7A).contains(b | 0x20))
    }

    /// Tags in preference order: a pseudo-locale when the first is exactly its tag; else the matcher over the
    /// others (pseudo-locale tags further down are skipped, so "de, en-XA" is de and "xx, en-XA" English).
    private func best(forPreferences tags: [String]) -> (locale: LocaleTag, matched: Bool) {
        if let first = tags.first, let pseudo = Self.pseudoLocale(first) { return (pseudo, true) }
        return matcher.best(for: tags.filter { Self.pseudoLocale($0) == nil })
    }
}

/// The ICU matcher handle. `@unchecked Sendable`: `icu::LocaleMatcher` is immutable after build and
/// documented thread-safe for lookups; the handle is destroyed only in deinit.
private final class Matcher: @unchecked Sendable {
    private let handle: OpaquePointer

    init() {
        let identifiers = LocaleTag.all.map(\.identifier)
        var status: Int32 = 0
        let pointers = identifiers.map { strdup($0)! }
        defer { pointers.forEach { free($0) } }
        let lengths = identifiers.map { Int32($0.utf8.count) }
        let created = pointers.map { UnsafePointer($0) as UnsafePointer<CChar>? }.withUnsafeBufferPointer { tags in
            lengths.withUnsafeBufferPointer { lengths in
                lookd_matcher_create(tags.baseAddress, lengths.baseAddress, Int32(tags.count),
                                     Int32(LocaleTag.english.index), &status)
            }
        }
        guard let created else {
            // Only a broken ICU installation gets here; nothing can negotiate without data.
            fatalError("lookd: cannot build the ICU locale matcher: \(ICUText.errorName(status))")
        }
        handle = created
    }

    deinit { lookd_matcher_destroy(handle) }

    func best(for tag: String) -> (locale: LocaleTag, matched: Bool) {
        var matched: Int32 = 0
        let index = ICUText.withUTF8(tag) { lookd_matcher_best_for_tag(handle, $0, $1, &matched) }
        return (LocaleTag.all[Int(index)], matched == 1)
    }

    func best(for tags: [String]) -> (locale: LocaleTag, matched: Bool) {
        if tags.isEmpty { return (.english, false) }
        if tags.count == 1 { return best(for: tags[0]) }
        // Every UTF-8 byte of each tag, interior NULs included: strdup would stop at the first NUL while the
        // length below counts them all, and ICU would read past the copy (found by `make sanitize`).
        let pointers = tags.map { tag in
            tag.utf8CString.withUnsafeBufferPointer { bytes in
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
                copy.initialize(from: bytes.baseAddress!, count: bytes.count)
                return copy
            }
        }
        defer { pointers.forEach { $0.deallocate() } }
        let lengths = tags.map { Int32($0.utf8.count) }
        var matched: Int32 = 0
        let index = pointers.map { UnsafePointer($0) as UnsafePointer<CChar>? }.withUnsafeBufferPointer { tags in
            lengths.withUnsafeBufferPointer { lengths in
                lookd_matcher_best_for_tags(handle, tags.baseAddress, lengths.baseAddress, Int32(tags.count), &matched)
            }
        }
        return (LocaleTag.all[Int(index)], matched == 1)
    }
}
