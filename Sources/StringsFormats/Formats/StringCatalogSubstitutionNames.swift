import StableJSON

/// The names a String Catalog localization gives its substitutions (`%#@followerCount@` and
/// `"substitutions": {"followerCount": {"argNum": 1, …}}`), by the argument each stands for, and whether its token
/// carries the argument's number (`%2$#@followerCount@`), so that a *changed* localization is written back with the
/// team's names and tokens instead of lookd's (its arguments' names, `%#@name@`). A value type.
struct StringCatalogSubstitutionNames {
    private var names: [Int: String] = [:]
    /// The arguments whose token the file writes with its number (`%2$#@name@`).
    private var positional: Set<Int> = []

    /// The names of `localization`'s substitutions (their `argNum`, else the argument their token stands for);
    /// nil when it has none.
    init?(localization: JSONDocument) {
        let template = localization["stringUnit"]?["value"]?.stringValue ?? ""
        for substitution in localization["substitutions"]?.members ?? [] {
            guard let number = substitution.value["argNum"]?.intValue ?? StringCatalogDocument.tokenArgument(substitution.key, in: template),
                  names[number] == nil else { continue }
            names[number] = substitution.key
        }
        if names.isEmpty { return nil }
        for token in Self.tokens(template) {
            if let number = token.number, names[number] == token.name { positional.insert(number) }
        }
    }

    /// `localization` (lookd's rendering) with each substitution renamed to the name the file has for its
    /// argument, in `substitutions` and in the `%#@name@` tokens of its value, and each token written with its
    /// argument number where the file writes it so (`%2$#@anzahl@`). A substitution whose argument has no name
    /// here, or whose new name another substitution keeps, keeps its name.
    func renaming(_ localization: JSONDocument) -> JSONDocument {
        guard let rendered = localization["substitutions"]?.members, case .object(let members) = localization.value else { return localization }
        let template = localization["stringUnit"]?["value"]?.stringValue ?? ""
        var renamed: [String: String] = [:]
        var arguments: [String: Int] = [:]
        var taken = Set(rendered.map(\.key))
        for substitution in rendered {
            guard let number = substitution.value["argNum"]?.intValue ?? StringCatalogDocument.tokenArgument(substitution.key, in: template) else { continue }
            arguments[substitution.key] = number
            guard let name = names[number], name != substitution.key, !taken.contains(name) else { continue }
            taken.remove(substitution.key)
            taken.insert(name)
            renamed[substitution.key] = name
        }
        if renamed.isEmpty, !arguments.values.contains(where: positional.contains) { return localization }
        return JSONDocument(.object(members.map { member in
            switch member.key {
            case "substitutions":
                return .init(member.key, JSONDocument(.object(rendered.map { .init(renamed[$0.key] ?? $0.key, $0.value) }), position: member.value.position))
            case "stringUnit":
                guard case .object(let unit) = member.value.value else { return member }
                return .init(member.key, JSONDocument(.object(unit.map { field in
                    guard field.key == "value", let text = field.value.stringValue else { return field }
                    return .init(field.key, .string(renamingTokens(text, renamed, arguments: arguments)))
                }), position: member.value.position))
            default:
                return member
            }
        }), position: localization.position)
    }

    /// The substitution tokens of `text` (`%#@name@`, `%2$#@name@`): where each starts and ends, its name and
    /// its written argument number (nil when sequential).
    private static func tokens(_ text: String) -> [(range: Range<String.Index>, name: String, number: Int?)] {
        var found: [(range: Range<String.Index>, name: String, number: Int?)] = []
        var index = text.startIndex
        while let percent = text[index...].firstIndex(of: "%") {
            var cursor = text.index(after: percent)
            index = cursor
            let digits = text[cursor...].prefix { $0.isASCII && $0.isNumber }
            var number: Int?
            if !digits.isEmpty, text[digits.endIndex...].hasPrefix("$") {
                number = Int(digits)
                cursor = text.index(after: digits.endIndex)
            }
            guard text[cursor...].hasPrefix("#@") else { continue }
            let nameStart = text.index(cursor, offsetBy: 2)
            guard let close = text[nameStart...].firstIndex(of: "@") else { break }
            index = text.index(after: close)
            found.append((percent..<index, String(text[nameStart..<close]), number))
        }
        return found
    }

    /// `text` with every substitution token renamed by `renamed`, and given its argument number where the file
    /// writes this argument's token with one (`%2$#@name@`).
    private func renamingTokens(_ text: String, _ renamed: [String: String], arguments: [String: Int]) -> String {
        var result = ""
        var last = text.startIndex
        for token in Self.tokens(text) {
            result += text[last..<token.range.lowerBound]
            let name = renamed[token.name] ?? token.name
            let number = token.number ?? arguments[token.name].flatMap { positional.contains($0) ? $0 : nil }
            result += number.map { "%\($0)$#@\(name)@" } ?? "%#@\(name)@"
            last = token.range.upperBound
        }
        return result + text[last...]
    }
}
