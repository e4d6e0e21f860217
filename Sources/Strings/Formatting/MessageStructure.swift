import CICU

/// The structure of a MessageFormat pattern as ICU's `MessagePattern` parses it: every argument with its
/// type, and every plural/select key, with positions — what a translation linter checks.
/// Positions are in Unicode code points (scalars) from the pattern's start.
public struct MessageStructure: Sendable, Hashable {
    /// One use of an argument: `{name}`, `{count, plural, …}`, `{date, date, ::dMMM}`, …
    public struct ArgumentUse: Sendable, Hashable {
        public let name: String
        public let type: ArgumentType
        /// Where the name starts, in code points from the pattern's start.
        public let offset: Int
        /// The style text of a simple argument (e.g. "::dMMM", "integer"), or nil.
        public let style: String?
        /// The index in `selectors` of the plural/select branch whose message contains this use; nil at top level.
        public let enclosingSelector: Int?
    }

    /// One key of a plural/select/selectordinal argument: "one", "other", "=0", "online", …
    public struct Selector: Sendable, Hashable {
        public let key: String
        /// The index in `arguments` of the argument it belongs to.
        public let argument: Int
        public let offset: Int
    }

    public let arguments: [ArgumentUse]
    public let selectors: [Selector]

    /// The distinct argument names, in order of first use.
    public var argumentNames: [String] {
        var seen: Set<String> = []
        return arguments.compactMap { seen.insert($0.name).inserted ? $0.name : nil }
    }

    /// Every type each argument name is used with.
    public var argumentTypes: [String: Set<ArgumentType>] {
        arguments.reduce(into: [:]) { $0[$1.name, default: []].insert($1.type) }
    }

    /// The keys of each plural/select use, by argument index.
    public func keys(ofArgument index: Int) -> [String] {
        selectors.filter { $0.argument == index }.map(\.key)
    }

    /// Parses `pattern`. Throws `FormatError.invalidPattern` with ICU's error name and offset.
    public init(pattern: String) throws {
        var error = lookd_parse_error()
        guard let handle = ICUText.withUTF8(pattern, { lookd_pattern_parse($0, $1, &error) }) else {
            throw FormatError.invalidPattern(pattern: pattern, error: Self.errorName(error), offset: Int(error.code_point_offset))
        }
        defer { lookd_pattern_close(handle) }
        let scalars = Array(pattern.unicodeScalars)
        var arguments: [ArgumentUse] = []
        var selectors: [Selector] = []
        var argumentIndexByItem: [Int32: Int] = [:]
        var selectorIndexByItem: [Int32: Int] = [:]
        let count = lookd_pattern_item_count(handle)
        for itemIndex in 0..<count {
            var item = lookd_pattern_item()
            let text = ICUText.string(capacity: 64) { lookd_pattern_get_item(handle, itemIndex, &item, $0, $1) } ?? ""
            if item.kind == 0 {
                var style: String?
                if item.style_offset >= 0, Int(item.style_offset + item.style_length) <= scalars.count {
                    var view = String.UnicodeScalarView()
                    view.append(contentsOf: scalars[Int(item.style_offset)..<Int(item.style_offset + item.style_length)])
                    style = String(view).trimmingWhitespace()
                }
                argumentIndexByItem[itemIndex] = arguments.count
                arguments.append(ArgumentUse(
                    name: text, type: ArgumentType(shim: item.type), offset: Int(item.offset), style: style,
                    enclosingSelector: item.parent >= 0 ? selectorIndexByItem[item.parent] : nil))
            } else {
                selectorIndexByItem[itemIndex] = selectors.count
                selectors.append(Selector(key: text, argument: argumentIndexByItem[item.parent] ?? -1, offset: Int(item.offset)))
            }
        }
        self.arguments = arguments
        self.selectors = selectors
    }

    package static func errorName(_ error: lookd_parse_error) -> String {
        withUnsafeBytes(of: error.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}

extension String {
    package func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
