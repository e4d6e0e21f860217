/// How ``JSONWriter`` lays out its output: white space only, never the values. Thread-safe: a value type.
public struct JSONLayout: Sendable, Hashable {
    /// Whether members and elements go on their own lines, indented by two spaces a level.
    public var indented: Bool
    /// When indented: containers at most this deep (the top-level value is depth 1) put each member and element
    /// on its own line; deeper ones are written on one line with `", "` between items. `Int.max`: every level.
    public var lineDepth: Int
    /// When indented: `"key" : value` (a space before the colon too, as Xcode writes) instead of `"key": value`.
    public var spaceBeforeColon: Bool
    /// When indented: an empty object or array is written `{`, an empty line, `}` (as Xcode writes) instead of `{}`.
    public var blankLineInEmpty: Bool

    public init(indented: Bool, lineDepth: Int = .max, spaceBeforeColon: Bool = false, blankLineInEmpty: Bool = false) {
        self.indented = indented
        self.lineDepth = max(lineDepth, 0)
        self.spaceBeforeColon = spaceBeforeColon
        self.blankLineInEmpty = blankLineInEmpty
    }

    /// No white space at all: `{"a":[1,2]}`. What the daemon sends.
    public static let compact = JSONLayout(indented: false)
    /// A line per member and element, two-space indent, `"key": value`.
    public static let pretty = JSONLayout(indented: true)
    /// Xcode's String Catalog layout: like ``pretty`` but `"key" : value`, and empty containers as `{`, an
    /// empty line, `}`.
    public static let xcode = JSONLayout(indented: true, spaceBeforeColon: true, blankLineInEmpty: true)
    /// lookd's catalog files: the top-level object a member a line, each member's value on that line
    /// (`"key": {"message": "…", "maxLength": 20}`).
    public static let catalog = JSONLayout(indented: true, lineDepth: 1)
}
