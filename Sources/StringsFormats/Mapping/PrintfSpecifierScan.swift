/// The conversion specifiers of a printf-style text (`%d`, `%2$@`, `%lld`, `%#@name@`), for reading files lookd did
/// not write, where nothing but the text says which arguments there are.
enum PrintfSpecifierScan {
    /// Calls `body` for each specifier of `text`, in order, with its argument number (an explicit `%N$`, else
    /// `sequential`, which then advances) and the text right after the number, where the conversion starts
    /// (`d…`, `@…`, `lld…`, `#@name@…`). `%%` is a literal percent sign and is skipped.
    static func forEach(in text: String, sequential: inout Int, _ body: (_ number: Int, _ conversion: Substring) -> Void) {
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            rest = rest[rest.index(after: percent)...]
            if rest.hasPrefix("%") { rest = rest.dropFirst(); continue }
            let digits = rest.prefix { $0.isNumber }
            var number = sequential
            if !digits.isEmpty, rest.dropFirst(digits.count).hasPrefix("$") {
                number = Int(digits) ?? sequential
                rest = rest.dropFirst(digits.count + 1)
            } else {
                sequential += 1
            }
            body(number, rest)
        }
    }
}
