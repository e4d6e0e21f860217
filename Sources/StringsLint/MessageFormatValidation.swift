import Strings
import CICU
import Locking

/// What `icu::MessagePattern` accepts but `icu::MessageFormat` — what the runtime builds — refuses: an unknown
/// argument type (`{x, foo}`) or a bad number/date style or skeleton (`{n, number, ::bogus}`).
///
/// Building a MessageFormat creates number and date formatters (tens of microseconds), so each simple typed
/// argument is checked alone, as `{0, type, style}`, once per locale and process; only patterns with
/// `choice` or `selectordinal` arguments are built whole.
enum MessageFormatValidation {
    /// Nil when every typed argument of `pattern` builds for `tag`; else ICU's error name and an offset in code
    /// points (the failing argument's, or ICU's own for whole patterns; 0 when ICU gives none).
    /// `memo` holds what this tag's single arguments gave before (one memo per tag: a catalog's checks).
    static func error(pattern: String, structure: LintPattern, tag: String, memo: inout Memo) -> (name: String, offset: Int)? {
        for argument in structure.arguments where argument.type.needsMessageFormatValidation {
            switch argument.type {
            case .choice, .selectordinal:
                if let failure = open(pattern, tag: tag) { return failure }
            default:
                guard let word = argument.typeWord else { continue }
                if let failure = memo.error(type: word, style: argument.style, else: { cachedError(SingleArgument(tag: tag, type: word, style: argument.style)) }) {
                    return (failure, argument.offset)
                }
            }
        }
        return nil
    }

    /// The errors (nil: none) of the first few single typed arguments one tag's checks looked up, by type word and
    /// style: a catalog's typed arguments are mostly the same few (`{arg1, number}`, `{arg1, number, integer}`),
    /// found here without the shared cache's lock and hashing (that look-up per argument was 3.1 of the 278 million
    /// instructions of `lookd lint` on one `lint-xliff` bench file, callgrind, 3 Dec 2026). A value type, one per tag.
    struct Memo {
        private var known: [(type: String, style: String?, error: String?)] = []

        /// What `type` and `style` gave before, else what `lookUp` gives (kept while the memo holds fewer than 8).
        fileprivate mutating func error(type: String, style: String?, else lookUp: () -> String?) -> String? {
            if let entry = known.first(where: { $0.type == type && $0.style == style }) { return entry.error }
            let error = lookUp()
            if known.count < 8 { known.append((type, style, error)) }
            return error
        }
    }

    /// One typed argument checked alone, as the cache's key: its pattern is written only when it is not cached.
    /// Writing it and a text key for every argument, this check took 8.1 of the 382 million instructions of
    /// `lookd lint` on one `lint-xliff` bench file; the cache look-up with this key takes 3.0 (callgrind, 2 Dec 2026).
    private struct SingleArgument: Hashable {
        let tag: String
        let type: String
        let style: String?

        /// `{0, type}` or `{0, type, style}`.
        var pattern: String { "{0, \(type)" + (style.map { ", \($0)" } ?? "") + "}" }
    }

    private static let cache = LockedValue<[SingleArgument: String?]>([:])

    private static func cachedError(_ single: SingleArgument) -> String? {
        if let known = cache.withLock({ $0[single] }) { return known }
        let name = open(single.pattern, tag: single.tag)?.name
        cache.withLock { $0[single] = .some(name) }
        return name
    }

    private static func open(_ pattern: String, tag: String) -> (name: String, offset: Int)? {
        var error = lookd_parse_error()
        let handle = ICUText.withUTF8(pattern) { bytes, length in
            ICUText.withUTF8(tag) { lookd_message_open(bytes, length, $0, $1, &error) }
        }
        if let handle {
            lookd_message_close(handle)
            return nil
        }
        return (MessageStructure.errorName(error), Int(error.code_point_offset))
    }
}
