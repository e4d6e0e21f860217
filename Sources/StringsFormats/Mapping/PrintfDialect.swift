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
        // A string without arguments is never formatted: all of it is text.
        guard !legend.entries.isEmpty else { return text.isEmpty ? [] : [.text(text)] }
        // Without a `%` all of it is text too, found with one byte search (most texts of real files; the scan
        // below, with its scalar arrays, costs about 8,000 instructions per text in the `lint-xliff` bench).
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text.isEmpty ? [] : [.text(text)] }
        let view = text.unicodeScalars
        let scalars = Array(view)
        // Where each scalar starts in `text` (and its end), so that text between specifiers is copied as one
        // slice rather than a scalar at a time (appending scalar by scalar was 8.8% of the `lint-xliff` bench's
        // lint time).
        var starts = Array(view.indices)
        starts.append(view.endIndex)
        var pieces: [PrintfMessage.Piece] = []
        var literal = ""
        /// The text from `runStart` up to the scalar being read is not in `literal` yet.
        var runStart = 0
        var nextSequential = 1
        var index = 0
        func takeRun(upTo end: Int) {
            if end > runStart { literal += String(view[starts[runStart]..<starts[end]]) }
            runStart = end
        }
        func flush() {
            if !literal.isEmpty { pieces.append(.text(literal)) }
            literal = ""
        }
        while index < scalars.count {
            guard scalars[index] == "%" else {
                index += 1
                continue
            }
            takeRun(upTo: index)
            let start = index
            index += 1
            defer { runStart = index }
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
            // Java's %n: a line separator, no argument.
            if let newline = PrintfSpecifier.read(scalars[index...]), newline.category == .newline {
                literal.append("\n")
                index += newline.length
                continue
            }
            var digits = ""
            var digitsEnd = index
            while digitsEnd < scalars.count, ("0"..."9").contains(scalars[digitsEnd]) {
                digits.unicodeScalars.append(scalars[digitsEnd])
                digitsEnd += 1
            }
            var number: Int?
            // `%2$d` names its argument; `%06x` and `%5s` are a width (read with the specification below).
            if !digits.isEmpty, digitsEnd < scalars.count, scalars[digitsEnd] == "$", let value = Int(digits) {
                number = value
                index = digitsEnd + 1
            } else {
                digits = ""
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
            guard index < scalars.count else { throw fail("specifier at the end of '\(text)' is incomplete") }
            guard let specification = PrintfSpecifier.read(scalars[index...]) else {
                throw fail("malformed specifier '\(String(String.UnicodeScalarView(scalars[start..<min(index + 1, scalars.count)])))' (a percent sign is '%%' in a string with arguments)")
            }
            let conversion = specification.conversion
            index += specification.length
            let resolved = number ?? nextSequential
            if number == nil { nextSequential += 1 }
            guard resolved >= 1, resolved <= legend.entries.count else {
                throw fail("specifier '%\(digits.isEmpty ? "" : digits + "$")\(conversion)' refers to argument \(resolved); the source has \(legend.entries.count)", .argument)
            }
            let entry = legend.entries[resolved - 1]
            let expectsInteger = entry.kind == .integer
            // Integers must stay integers and the rest must not become integers; a float (`%.1f`) fits a number.
            let fits = switch specification.category {
            case .integer: expectsInteger
            case .float: entry.type == "number"
            case .text: !expectsInteger
            case .other, .newline: true
            }
            guard fits else {
                let expected = expectsInteger ? integerConversion : entry.type == "number" && entry.style == nil ? "f" : textConversion
                throw fail("argument \(resolved) is written '%\(conversion)', the source passes it as '%\(expected)'", .argumentType)
            }
            flush()
            pieces.append(resolved == countArgument ? .count : .argument(resolved))
        }
        takeRun(upTo: scalars.count)
        flush()
        return pieces
    }
}
