/// Why a compressed body could not be decoded.
enum CompressionError: Error, Equatable, CustomStringConvertible {
    /// Not one valid stream of the coding; the message says what was wrong.
    case malformed(String)
    /// The decoded bytes would exceed the caller's limit (in bytes).
    case tooLarge(limit: Int)

    var description: String {
        switch self {
        case .malformed(let message): return message
        case .tooLarge(let limit): return "the decoded body is over \(limit) bytes"
        }
    }
}
