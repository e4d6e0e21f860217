/// The conversion specifiers of a printf-style text (`%d`, `%2$@`, `%lld`, `%#@name@`), for reading files lookd did
/// not write, where nothing but the text says which arguments there are.
enum PrintfSpecifierScan {
    /// Calls `body` for each specifier of `text`, in order, with its argument number (an explicit `%N$`, else
    /// `sequential`, which then advances) and the text right after the number, where the conversion starts
    /// (`d…`, `@…`, `lld…`, `#@name@…`). `%%` is a literal percent sign and is skipped. Reads Unicode scalars, as
    /// `PrintfDialect.parse` does (reading characters was 9% of the `lint-xliff` bench's lint time).
    static func forEach(in text: String, sequential: inout Int, _ body: (_ number: Int, _ conversion: Substring.UnicodeScalarView) -> Void) {
        // A text without `%` has no specifier: one byte search instead of a walk over its scalars.
        guard text.utf8.contains(UInt8(ascii: "%")) else { return }
        var rest = Substring(text).unicodeScalars
        while let percent = rest.firstIndex(of: "%") {
            rest = rest[rest.index(after: percent)...]
            if rest.first == "%" { rest = rest.dropFirst(); continue }
            // Java's %n is a line separator, not an argument.
            if PrintfSpecifier.read(rest)?.category == .newline { continue }
            let digits = rest.prefix { $0.properties.numericType != nil }
            let positional = !digits.isEmpty && rest.dropFirst(digits.count).first == "$" && digits.first != "0"
            let conversion = positional ? rest.dropFirst(digits.count + 1) : rest
            // A `%` that starts no specification ("100% accurate") is a percent sign, not an argument.
            guard conversion.starts(with: "#@".unicodeScalars) || PrintfSpecifier.read(conversion) != nil else { continue }
            var number = sequential
            if positional {
                number = Int(String(digits)) ?? sequential
            } else {
                sequential += 1
            }
            rest = conversion
            body(number, rest)
        }
    }
}
