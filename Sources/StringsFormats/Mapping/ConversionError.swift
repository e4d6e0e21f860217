/// Why catalogs could not be converted to or from a format: every problem names the key (and the locale or
/// file when it is about one), so nothing is flattened silently. Export and import collect all problems of a
/// run before throwing.
public struct ConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The catalog key (or the format's own name for it when it maps to no key), nil for file-level problems.
        public let key: String?
        /// The locale tag, when the problem is in one locale's text.
        public let locale: String?
        public let reason: String

        public init(key: String?, locale: String? = nil, reason: String) {
            self.key = key
            self.locale = locale
            self.reason = reason
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

    public init(key: String?, locale: String? = nil, reason: String) {
        problems = [Problem(key: key, locale: locale, reason: reason)]
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
