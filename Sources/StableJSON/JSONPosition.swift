/// Where something starts in a JSON text: 1-based line (lines end at LF), 1-based column counted in Unicode
/// scalars within that line, and the 0-based byte offset from the start of the input. Thread-safe: a value type.
public struct JSONPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// Line 1, column 1, offset 0: the start of the input (also the position of values built in code).
    public static let start = JSONPosition(line: 1, column: 1, offset: 0)

    /// Ordered by byte offset (equivalently by line, then column, for positions in one input).
    public static func < (lhs: JSONPosition, rhs: JSONPosition) -> Bool { lhs.offset < rhs.offset }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}
