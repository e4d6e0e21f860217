import StableJSON

/// How a file spells its arguments' printf specifiers (String Catalogs `%@ %@`, `%d`, `%.1f`; Android `%s %d`,
/// `%1$s`), read from the values of a localization or resource lookd did not write, so that a *changed* one is
/// written back with the same spelling instead of lookd's own (`%1$@ %2$@`, `%lld`; `%1$s %2$d`, `%s`): the diff
/// then shows only the words the team changed. A value type.
///
/// A rendered specifier is respelled only when the meaning stays: the file spells the same argument with a
/// specification of the same kind (text for text, integer for integer, a number for a number). Sequential
/// specifiers (`%@`) are written only where the value uses its arguments in order (the k-th specifier is argument
/// k), else positional ones (`%2$@ … %1$@`) with the file's specification. Substitution tokens (`%#@name@`) and
/// `%arg` are left as rendered. Anything else — an argument the file never spells, another kind — leaves the value
/// as lookd rendered it.
struct PrintfSpecifierSpelling {
    private struct Spelled {
        /// The specification after `%` and `N$`: flags, width, precision, length modifier, conversion (`.1f`).
        var body: String
        var category: PrintfSpecifier.Category
    }

    private var spelled: [Int: Spelled] = [:]
    /// Whether the file writes `%N$` (else it numbers its arguments by their order).
    private var positional = false

    /// The spelling of `values` (every `stringUnit` value of a localization, or a key); nil when they spell no
    /// argument.
    init?(values: [String]) {
        for value in values {
            for token in Self.tokens(value) {
                guard let specification = token.specification, spelled[token.number] == nil else { continue }
                spelled[token.number] = Spelled(body: specification.body, category: specification.category)
                if token.explicit { positional = true }
            }
        }
        if spelled.isEmpty { return nil }
    }

    /// The spelling of a localization object: every `stringUnit.value` in it, its variations and substitutions.
    init?(localization: JSONDocument) {
        self.init(values: Self.values(in: localization))
    }

    /// `localization` (lookd's rendering of a changed localization) with every value respelled.
    func respelling(_ localization: JSONDocument) -> JSONDocument {
        switch localization.value {
        case .object(let members):
            return JSONDocument(.object(members.map { member in
                if member.key == "value", let text = member.value.stringValue { return .init(member.key, .string(respelling(text))) }
                return .init(member.key, respelling(member.value))
            }), position: localization.position)
        case .array(let elements):
            return JSONDocument(.array(elements.map(respelling)), position: localization.position)
        default:
            return localization
        }
    }

    /// `value` with the file's spelling, or `value` itself when the meaning would change.
    func respelling(_ value: String) -> String {
        let tokens = Self.tokens(value)
        guard tokens.contains(where: { $0.specification != nil }) else { return value }
        var bodies: [Int: String] = [:]
        for token in tokens {
            guard let specification = token.specification else { continue }
            guard let file = spelled[token.number], Self.sameKind(file.category, specification.category) else { return value }
            bodies[token.number] = file.body
        }
        let inOrder = tokens.enumerated().allSatisfy { $0.element.number == $0.offset + 1 }
        let sequential = !positional && inOrder
        var result = ""
        var last = value.unicodeScalars.startIndex
        let scalars = value.unicodeScalars
        for token in tokens {
            result.unicodeScalars.append(contentsOf: scalars[last..<token.range.lowerBound])
            if token.specification != nil, let body = bodies[token.number] {
                result += sequential ? "%" + body : "%\(token.number)$" + body
            } else {
                result.unicodeScalars.append(contentsOf: scalars[token.range])
            }
            last = token.range.upperBound
        }
        result.unicodeScalars.append(contentsOf: scalars[last...])
        return result
    }

    /// A text specifier may stand for a number lookd passes formatted (`{n, number}` is `%@`), so a file's `%.1f`
    /// keeps its spelling; otherwise the kinds must be equal.
    private static func sameKind(_ file: PrintfSpecifier.Category, _ rendered: PrintfSpecifier.Category) -> Bool {
        file == rendered || (rendered == .text && file == .float)
    }

    private struct Token {
        var range: Range<String.UnicodeScalarView.Index>
        var number: Int
        var explicit: Bool
        /// Nil for a substitution token (`%#@name@`).
        var specification: (body: String, category: PrintfSpecifier.Category)?
    }

    /// The argument specifiers of `value` in order (`%%`, `%arg` and Java's `%n` are not arguments; `%#@name@`
    /// takes an argument's place, as Apple numbers them).
    private static func tokens(_ value: String) -> [Token] {
        let scalars = value.unicodeScalars
        var tokens: [Token] = []
        var sequential = 1
        var index = scalars.startIndex
        while let percent = scalars[index...].firstIndex(of: "%") {
            var cursor = scalars.index(after: percent)
            index = cursor
            guard cursor < scalars.endIndex else { break }
            if scalars[cursor] == "%" { index = scalars.index(after: cursor); continue }
            if String(String.UnicodeScalarView(scalars[cursor...].prefix(3))) == "arg" { index = scalars.index(cursor, offsetBy: 3); continue }
            let digits = scalars[cursor...].prefix { ("0"..."9").contains($0) }
            var explicitNumber: Int?
            if !digits.isEmpty, digits.endIndex < scalars.endIndex, scalars[digits.endIndex] == "$", digits.first != "0" {
                explicitNumber = Int(String(String.UnicodeScalarView(digits)))
                cursor = scalars.index(after: digits.endIndex)
            }
            let number = explicitNumber ?? sequential
            if explicitNumber == nil { sequential += 1 }
            let rest = scalars[cursor...]
            if rest.starts(with: "#@".unicodeScalars), let close = rest.dropFirst(2).firstIndex(of: "@") {
                let end = scalars.index(after: close)
                tokens.append(Token(range: percent..<end, number: number, explicit: explicitNumber != nil, specification: nil))
                index = end
                continue
            }
            guard let specification = PrintfSpecifier.read(ArraySlice(rest)), specification.category != .newline else {
                if explicitNumber == nil { sequential -= 1 }
                continue
            }
            let end = scalars.index(cursor, offsetBy: specification.length)
            tokens.append(Token(range: percent..<end, number: number, explicit: explicitNumber != nil,
                                specification: (String(String.UnicodeScalarView(scalars[cursor..<end])), specification.category)))
            index = end
        }
        return tokens
    }

    private static func values(in document: JSONDocument) -> [String] {
        switch document.value {
        case .object(let members):
            members.flatMap { member in member.key == "value" ? member.value.stringValue.map { [$0] } ?? [] : values(in: member.value) }
        case .array(let elements):
            elements.flatMap(values(in:))
        default:
            []
        }
    }
}
