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
    static func error(pattern: String, structure: LintPattern, tag: String) -> (name: String, offset: Int)? {
        for argument in structure.arguments where argument.type.needsMessageFormatValidation {
            switch argument.type {
            case .choice, .selectordinal:
                if let failure = open(pattern, tag: tag) { return failure }
            default:
                guard let word = argument.typeWord else { continue }
                let single = "{0, \(word)" + (argument.style.map { ", \($0)" } ?? "") + "}"
                if let failure = cachedError(single, tag: tag) { return (failure, argument.offset) }
            }
        }
        return nil
    }

    private static let cache = LockedValue<[String: String?]>([:])

    private static func cachedError(_ single: String, tag: String) -> String? {
        let key = tag + "\u{0}" + single
        if let known = cache.withLock({ $0[key] }) { return known }
        let name = open(single, tag: tag)?.name
        cache.withLock { $0[key] = .some(name) }
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
