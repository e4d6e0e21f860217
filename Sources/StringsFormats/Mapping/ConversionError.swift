/// Why catalogs could not be converted to or from a format: every problem names the key (and the locale or
/// file when it is about one), so nothing is flattened silently. Export and import collect all problems of a
/// run before throwing.
public struct ConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One thing that cannot be converted, and where.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// What sort of problem, for a linter to file it under a check.
        public enum Kind: Sendable, Hashable {
            /// A construct the other side has no lossless equivalent for (or lookd cannot read).
            case unsupported
            /// A specifier or argument that is not one of the source's.
            case argument
            /// A specifier of another type than the source's argument (`%@` for an integer).
            case argumentType
            /// Text that is not well-formed (MessageFormat, JSON, XML, escapes).
            case syntax
            /// A translation of a key the source does not have.
            case unknownKey
            /// A translation whose styling tags (Android `<b>`, `<a>`, …) differ from the source's.
            case markup
        }

        /// The catalog key (or the format's own name for it when it maps to no key), nil for file-level problems.
        public let key: String?
        /// The locale tag, when the problem is in one locale's text.
        public var locale: String?
        public let reason: String
        public var kind: Kind
        /// The file (relative path inside a directory format) and place, when the reader knows them.
        public var file: String?
        public var position: FilePosition?

        public init(key: String?, locale: String? = nil, reason: String, kind: Kind = .unsupported, file: String? = nil,
                    position: FilePosition? = nil) {
            self.key = key
            self.locale = locale
            self.reason = reason
            self.kind = kind
            self.file = file
            self.position = position
        }

        /// The same problem placed in `file` at `position` (kept when already placed).
        public func placed(file: String?, position: FilePosition?) -> Problem {
            var placed = self
            placed.file = self.file ?? file
            placed.position = self.position ?? position
            return placed
        }

        public var description: String {
            var place: [String] = []
            if let key { place.append("key '\(key)'") }
            if let locale { place.append("locale \(locale)") }
            return place.isEmpty ? reason : place.joined(separator: ", ") + ": " + reason
        }
    }

    public let problems: [Problem]

    public init(_ problems: [Problem]) { self.problems = problems }

    public init(key: String?, locale: String? = nil, reason: String, kind: Problem.Kind = .unsupported) {
        problems = [Problem(key: key, locale: locale, reason: reason, kind: kind)]
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// Runs `body` for each element, collecting every `ConversionError` instead of stopping at the first; throws
/// them all together at the end.
func collectingProblems<Element, Result>(_ elements: some Sequence<Element>,
                                        _ body: (Element) throws -> Result) throws -> [Result] {
    var results: [Result] = []
    var problems: [ConversionError.Problem] = []
    for element in elements {
        do {
            results.append(try body(element))
        } catch let error as ConversionError {
            problems += error.problems
        }
    }
    if !problems.isEmpty { throw ConversionError(problems) }
    return results
}
