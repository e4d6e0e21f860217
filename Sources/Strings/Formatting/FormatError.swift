/// Why a message could not be formatted. Formatting either returns the whole text or throws one of these;
/// it never returns a half-formatted string and never crashes on bad input.
public enum FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key is not in the source catalog.
    case unknownKey(key: String)
    /// No catalog in the locale's chain has a pattern for the key that ICU can parse.
    case noUsablePattern(key: String, locale: LocaleTag, problems: [String])
    /// A pattern does not parse (ICU's error name and where: code points from the pattern's start).
    case invalidPattern(pattern: String, error: String, offset: Int)
    /// The message uses an argument that was not supplied.
    case missingArgument(name: String, key: String?)
    /// An argument was supplied with a kind its use cannot format, e.g. a string for a plural.
    case wrongArgumentType(name: String, key: String?, expected: String, got: String)
    /// ICU reported an error while formatting (its error name).
    case icuFailure(key: String?, error: String)

    public var description: String {
        switch self {
        case .unknownKey(let key):
            "unknown message key '\(key)'"
        case .noUsablePattern(let key, let locale, let problems):
            "no usable pattern for '\(key)' in \(locale) or its fallbacks: " + problems.joined(separator: "; ")
        case .invalidPattern(_, let error, let offset):
            "pattern does not parse: \(error) at code point \(offset)"
        case .missingArgument(let name, let key):
            "missing argument '\(name)'" + (key.map { " for '\($0)'" } ?? "")
        case .wrongArgumentType(let name, let key, let expected, let got):
            "argument '\(name)'" + (key.map { " of '\($0)'" } ?? "") + " must be \(expected), got a \(got)"
        case .icuFailure(let key, let error):
            "ICU could not format" + (key.map { " '\($0)'" } ?? "") + ": \(error)"
        }
    }
}
