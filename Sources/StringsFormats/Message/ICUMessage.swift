/// An ICU MessageFormat pattern as a tree: the shape every export walks and every import rebuilds.
/// A value type; `ICUMessage(parsing:)` reads a pattern and `pattern` prints it back in lookd's canonical
/// spelling (`{name}`, `{name, type, style}`, `{name, plural, key {…} key {…}}`), which is how every catalog
/// message is written, so reading and printing a catalog message gives back the same bytes.
public struct ICUMessage: Sendable, Hashable {
    public var nodes: [Node]

    public init(_ nodes: [Node]) { self.nodes = nodes }

    /// One piece of a message.
    public indirect enum Node: Sendable, Hashable {
        /// Literal text, unquoted (an ICU `''` is one apostrophe here).
        case text(String)
        /// `{name}` (type nil) or `{name, type}` / `{name, type, style}` for number, date, time, … The style is
        /// kept as written, trimmed (`::dMMM`, `short`, `integer`).
        case argument(name: String, type: String?, style: String?)
        /// `#` inside a plural branch: the plural's number.
        case pound
        /// `{name, plural|selectordinal|select, [offset:n] key {message} …}`.
        case choice(Choice)
    }

    /// A plural, selectordinal or select argument with its branches in the order written.
    public struct Choice: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable {
            case plural, selectordinal, select
        }

        public var name: String
        public var kind: Kind
        /// `offset:n` of a plural, nil when absent.
        public var offset: Int?
        public var cases: [Case]

        public init(name: String, kind: Kind, offset: Int? = nil, cases: [Case]) {
            self.name = name
            self.kind = kind
            self.offset = offset
            self.cases = cases
        }
    }

    /// One branch: its key (`one`, `=0`, `online`, …) and its message.
    public struct Case: Sendable, Hashable {
        public var key: String
        public var message: ICUMessage

        public init(key: String, message: ICUMessage) {
            self.key = key
            self.message = message
        }
    }

    /// The choices (plural, select, …) anywhere in the message, outermost first.
    public var choices: [Choice] {
        nodes.flatMap { node -> [Choice] in
            guard case .choice(let choice) = node else { return [] }
            return [choice] + choice.cases.flatMap(\.message.choices)
        }
    }

    /// The whole message when it is exactly one choice and nothing else (no text around it).
    public var wholeChoice: Choice? {
        guard nodes.count == 1, case .choice(let choice) = nodes[0] else { return nil }
        return choice
    }
}
