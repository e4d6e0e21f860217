/// Why ``JSONReader`` refused its input, and where. Thread-safe: a value type.
public struct JSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Every reason the reader refuses input. The raw values are stable: clients may match on them.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// Not UTF-8: a byte order mark, UTF-16 or UTF-32 (RFC 8259 §8.1: JSON exchanged between systems is UTF-8).
        case invalidEncoding = "invalid_encoding"
        /// Bytes that are not well-formed UTF-8 (overlong forms, encoded surrogates, stray continuation bytes, …).
        case invalidUTF8 = "invalid_utf8"
        /// The input ended inside a value (or was empty).
        case unexpectedEnd = "unexpected_end"
        /// A byte that cannot start or continue the value here (including comments, single quotes, `NaN`).
        case unexpectedCharacter = "unexpected_character"
        /// A comma right before `]` or `}`.
        case trailingComma = "trailing_comma"
        /// More than white space after the top-level value.
        case trailingContent = "trailing_content"
        /// An object names the same key twice (after unescaping).
        case duplicateKey = "duplicate_key"
        /// A raw control character (U+0000...U+001F) inside a string.
        case controlCharacter = "control_character"
        /// A backslash not followed by one of `" \ / b f n r t` or `u` and four hex digits.
        case invalidEscape = "invalid_escape"
        /// A `\u` escape of a surrogate without its pair.
        case loneSurrogate = "lone_surrogate"
        /// A number outside RFC 8259's grammar (`01`, `1.`, `.5`, `+1`, `1e`).
        case invalidNumber = "invalid_number"
        /// Arrays and objects nested deeper than ``JSONReader/Limits/maxDepth``.
        case depthLimit = "depth_limit"
        /// A string or number longer than ``JSONReader/Limits/maxStringBytes``.
        case stringLimit = "string_limit"
        /// More values and keys than ``JSONReader/Limits/maxValues``.
        case valueLimit = "value_limit"
    }

    public var code: Code
    /// One sentence for people, in English.
    public var message: String
    /// Where the problem starts: 1-based line (lines end at LF), 1-based column in Unicode scalars within that
    /// line, and the 0-based byte offset in the input.
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(code: Code, message: String, line: Int, column: Int, offset: Int) {
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}
