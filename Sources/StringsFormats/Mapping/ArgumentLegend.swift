import Foundation

/// The arguments of one source message, numbered in order of first use: what `%1$@`, `%2$lld` (Apple) and
/// `%1$s`, `%2$d` (Android) refer to in every locale, and what an import needs to rebuild the ICU argument
/// (`{date, date, ::dMMM}` from `%2$@`). Written into the exported comment as one line
/// (`1 product; 2 date, date, ::dMMM`) so an export is self-describing. A value type.
public struct ArgumentLegend: Sendable, Hashable {
    /// How a platform format string passes the argument.
    public enum Kind: Sendable, Hashable {
        /// A string the app passes as is: `%@`, `%s`.
        case text
        /// An integer: `%lld`, `%d`. Plural arguments and `{n, number, integer}`.
        case integer
        /// A date, time or styled number the app formats itself, passed as a string (`%@`, `%s`); the ICU type
        /// and style (e.g. the skeleton `::dMMM`) are in the legend for the app's developer.
        case formatted
    }

    /// One argument: its ICU name, type and style.
    public struct Entry: Sendable, Hashable {
        public let name: String
        /// ICU type (`number`, `date`, `time`, `plural`), nil for `{name}`.
        public let type: String?
        public let style: String?

        /// How platforms pass it.
        public var kind: Kind {
            switch type {
            case nil: .text
            case "plural": .integer
            case "number" where style == "integer": .integer
            default: .formatted
            }
        }

        /// `name`, `name, type` or `name, type, style` — the inside of the ICU argument.
        public var head: String { [name, type, style].compactMap { $0 }.joined(separator: ", ") }
    }

    /// In order of first use in the source message, except that arguments named `arg1` … `argN` (all of them, as
    /// an import of a file lookd did not write names them) are in that order; `%1$…` is the first.
    public let entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// The arguments of `message` (a source message without select: selects are expanded before). Throws
    /// `ConversionError` (no key; the caller adds it) for argument kinds no platform format can carry:
    /// selectordinal, choice, a plural offset, an argument used with two different types.
    public init(source message: ICUMessage, key: String) throws {
        var entries: [Entry] = []
        func add(_ entry: Entry) throws {
            if let existing = entries.first(where: { $0.name == entry.name }) {
                guard existing == entry else {
                    throw ConversionError(key: key, reason: "argument '\(entry.name)' is used both as {\(existing.head)} and {\(entry.head)}")
                }
                return
            }
            entries.append(entry)
        }
        func walk(_ message: ICUMessage) throws {
            for node in message.nodes {
                switch node {
                case .text, .pound: break
                case .argument(let name, let type, let style):
                    if type == "choice" || type == "spellout" || type == "ordinal" || type == "duration" {
                        throw ConversionError(key: key, reason: "{\(name), \(type ?? "")} has no equivalent in String Catalogs or Android resources")
                    }
                    try add(Entry(name: name, type: type, style: style))
                case .choice(let choice):
                    switch choice.kind {
                    case .selectordinal:
                        throw ConversionError(key: key, reason: "selectordinal '\(choice.name)': String Catalogs and Android resources have no ordinal plurals")
                    case .select:
                        throw ConversionError(key: key, reason: "select '\(choice.name)' inside text or a plural: only a select that is the whole message maps (one key per case)")
                    case .plural:
                        if choice.offset != nil {
                            throw ConversionError(key: key, reason: "plural '\(choice.name)' has an offset, which no platform format has")
                        }
                        try add(Entry(name: choice.name, type: "plural", style: nil))
                        for branch in choice.cases { try walk(branch.message) }
                    }
                }
            }
        }
        try walk(message)
        // Arguments an import named after a file's positions (`arg1`, `arg2`, …: a file lookd did not write) keep
        // them, as the app passes them: `{arg2, plural, one {{arg1} shared # photo} …}` from Android's
        // `%s shared %d photo` is `%1$s … %2$d` again, though the plural is used first.
        let positions = entries.compactMap { $0.name.hasPrefix("arg") ? Int($0.name.dropFirst(3)) : nil }
        if !entries.isEmpty, positions.count == entries.count, Set(positions) == Set(1...entries.count) {
            entries.sort { Int($0.name.dropFirst(3))! < Int($1.name.dropFirst(3))! }
        }
        self.entries = entries
    }

    /// The 1-based number of the argument named `name`.
    public func number(of name: String) -> Int? {
        entries.firstIndex { $0.name == name }.map { $0 + 1 }
    }

    /// Whether specifiers are written with their number (`%1$@`): more than one argument.
    public var isPositional: Bool { entries.count > 1 }

    /// The legend line: `1 product; 2 date, date, ::dMMM`.
    public var line: String {
        entries.enumerated().map { "\($0.offset + 1) \($0.element.head)" }.joined(separator: "; ")
    }

    /// Reads a legend line written by `line`; nil when it is not one.
    public init?(line: String) {
        var entries: [Entry] = []
        for (position, item) in line.split(separator: "; ").enumerated() {
            let parts = item.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, Int(parts[0]) == position + 1 else { return nil }
            let fields = parts[1].split(separator: ",", maxSplits: 2).map { $0.trimmingCharacters(in: .whitespaces) }
            entries.append(Entry(name: fields[0], type: fields.count > 1 ? fields[1] : nil, style: fields.count > 2 ? fields[2] : nil))
        }
        self.entries = entries
    }
}
