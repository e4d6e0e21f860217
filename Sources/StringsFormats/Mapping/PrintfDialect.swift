/// How a platform spells `PrintfMessage` pieces: Apple `%@` / `%lld` (and `%#@name@`, `%arg` in
/// substitutions), Android `%s` / `%d`. Positional (`%2$@`) when the message has more than one argument;
/// a literal `%` is `%%` when the message has arguments (a string without arguments is never formatted).
/// A value type.
public struct PrintfDialect: Sendable, Hashable {
    /// For text and app-formatted arguments: `@` or `s`.
    public let textConversion: String
    /// For integers: `lld` or `d`.
    public let integerConversion: String
    /// Integer conversions read back besides `integerConversion` (`d`, `ld`, `i`, …).
    public let integerAliases: Set<String>

    public static let apple = PrintfDialect(textConversion: "@", integerConversion: "lld", integerAliases: ["d", "ld", "i", "lli", "li", "u", "lu", "llu"])
    public static let android = PrintfDialect(textConversion: "s", integerConversion: "d", integerAliases: [])

    /// The specifier of argument `number`.
    public func specifier(_ number: Int, legend: ArgumentLegend) -> String {
        let kind = number <= legend.entries.count ? legend.entries[number - 1].kind : .text
        let conversion = kind == .integer ? integerConversion : textConversion
        return legend.isPositional ? "%\(number)$\(conversion)" : "%\(conversion)"
    }

    /// `pieces` as a format string. `count`: how the plural's own number is spelled where it occurs (`%arg`
    /// in an Apple substitution, the plural argument's specifier elsewhere); `slot`: how a plural slot is.
    public func spell(_ pieces: [PrintfMessage.Piece], legend: ArgumentLegend, count: String = "", slot: (Int) -> String = { _ in "" }) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): legend.entries.isEmpty ? text : text.replacingOccurrences(of: "%", with: "%%")
            case .argument(let number): specifier(number, legend: legend)
            case .count: count
            case .plural(let number): slot(number)
            }
        }.joined()
    }

    /// Reads a format string back. `countArgument`: inside a variant of that plural, its own specifier (or
    /// `%arg`) is the count; `slots`: Apple substitution names → argument numbers. Throws `ConversionError`
    /// (the caller's key) for a specifier that is unknown, out of range, or of the wrong type for the legend.
    public func parse(_ text: String, legend: ArgumentLegend, countArgument: Int?, slots: [String: Int] = [:], key: String,
                      locale: String?) throws -> [PrintfMessage.Piece] {
        func fail(_ reason: String, _ kind: ConversionError.Problem.Kind = .syntax) -> ConversionError {
            ConversionError(key: key, locale: locale, reason: reason, kind: kind)
        }
        let scalars = Array(text.unicodeScalars)
        var pieces: [PrintfMessage.Piece] = []
        var literal = String.UnicodeScalarView()
        var nextSequential = 1
        var index = 0
        func flush() {
            if !literal.isEmpty { pieces.append(.text(String(literal))) }
            literal = String.UnicodeScalarView()
        }
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "%", !legend.entries.isEmpty else {
                literal.append(scalar)
                index += 1
                continue
            }
            let start = index
            index += 1
            if index < scalars.count, scalars[index] == "%" {
                literal.append("%")
                index += 1
                continue
            }
            if countArgument != nil, index + 3 <= scalars.count, String(String.UnicodeScalarView(scalars[index..<index + 3])) == "arg" {
                flush()
                pieces.append(.count)
                index += 3
                continue
            }
            var digits = ""
            while index < scalars.count, ("0"..."9").contains(scalars[index]) {
                digits.unicodeScalars.append(scalars[index])
                index += 1
            }
            var number: Int?
            if !digits.isEmpty {
                guard index < scalars.count, scalars[index] == "$", let value = Int(digits) else { throw fail("malformed specifier '\(String(String.UnicodeScalarView(scalars[start..<min(index + 1, scalars.count)])))'") }
                number = value
                index += 1
            }
            if index + 1 < scalars.count, scalars[index] == "#", scalars[index + 1] == "@" {
                index += 2
                var name = ""
                while index < scalars.count, scalars[index] != "@" {
                    name.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard index < scalars.count, let slot = slots[name] else { throw fail("substitution '%#@\(name)@' has no definition", .argument) }
                index += 1
                flush()
                pieces.append(.plural(slot))
                continue
            }
            var conversion = ""
            while index < scalars.count, "hlqjztL".unicodeScalars.contains(scalars[index]) {
                conversion.unicodeScalars.append(scalars[index])
                index += 1
            }
            guard index < scalars.count else { throw fail("specifier at the end of '\(text)' is incomplete") }
            conversion.unicodeScalars.append(scalars[index])
            index += 1
            let resolved = number ?? nextSequential
            if number == nil { nextSequential += 1 }
            guard resolved >= 1, resolved <= legend.entries.count else {
                throw fail("specifier '%\(digits.isEmpty ? "" : digits + "$")\(conversion)' refers to argument \(resolved); the source has \(legend.entries.count)", .argument)
            }
            let isInteger = conversion == integerConversion || integerAliases.contains(conversion)
            guard isInteger || conversion == textConversion else { throw fail("unsupported specifier '%\(conversion)'", .argumentType) }
            let expectsInteger = legend.entries[resolved - 1].kind == .integer
            guard isInteger == expectsInteger else {
                throw fail("argument \(resolved) is written '%\(conversion)', the source passes it as '%\(expectsInteger ? integerConversion : textConversion)'", .argumentType)
            }
            flush()
            pieces.append(resolved == countArgument ? .count : .argument(resolved))
        }
        flush()
        return pieces
    }
}
