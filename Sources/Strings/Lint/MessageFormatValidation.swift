import CICU

/// What `icu::MessagePattern` accepts but `icu::MessageFormat` — what the runtime builds — refuses: an unknown
/// argument type (`{x, foo}`) or a bad number/date style or skeleton (`{n, number, ::bogus}`). Only patterns
/// with typed simple arguments need this second, costlier parse.
enum MessageFormatValidation {
    /// Nil when `pattern` builds a MessageFormat for `tag`; else ICU's error name and its offset in code points
    /// (0 when ICU gives no position).
    static func error(pattern: String, tag: String) -> (name: String, offset: Int)? {
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
