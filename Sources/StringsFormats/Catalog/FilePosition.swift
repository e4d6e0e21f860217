import StableJSON

/// A place in a file: 1-based line and 1-based column counted in Unicode scalars (the convention of lookd's
/// lint findings).
public struct FilePosition: Sendable, Hashable, Comparable {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static let start = FilePosition(line: 1, column: 1)

    /// The line and column of a position in a JSON text (its byte offset dropped).
    public init(_ position: JSONPosition) {
        self.init(line: position.line, column: position.column)
    }

    public static func < (lhs: FilePosition, rhs: FilePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
