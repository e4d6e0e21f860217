/// The conversion specifiers of a printf-style text (`%d`, `%2$@`, `%lld`, `%#@name@`), for reading files lookd did
/// not write, where nothing but the text says which arguments there are.
enum PrintfSpecifierScan {
    /// Calls `body` for each specifier of `text`, in order, with its argument number (an explicit `%N$`, else
    /// `sequential`, which then advances), its specification (`d`, `@`, `lld`; `%#@name@` reads as `#@`, a flag and
    /// `@`) and whether it is a substitution (`%#@name@`). `%%` is a literal percent sign and is skipped. Reads the
    /// UTF-8 bytes (reading scalars, each specifier three times, was 38 million of the 42 million instructions the
    /// legends of one file of the `lint-xliff` bench cost; callgrind, 2 Dec 2026).
    static func forEach(in text: String, sequential: inout Int,
                        _ body: (_ number: Int, _ specifier: PrintfSpecifier, _ isSubstitution: Bool) -> Void) {
        // A text without `%` has no specifier: one byte search instead of a walk over its bytes.
        guard text.containsUTF8(UInt8(ascii: "%")) else { return }
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                // The next `%` found by `memchr`, not a byte at a time (about five instructions a byte).
                guard bytes[index] == UInt8(ascii: "%") else {
                    index = UTF8Words.firstIndex(of: UInt8(ascii: "%"), in: bytes, from: index)
                    continue
                }
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "%") {
                    index += 1
                    continue
                }
                // Java's %n is a line separator, not an argument.
                // Read once here, again below only for a `N$` specification (as in `PrintfDialect.parse`).
                let atPercent = PrintfSpecifier.read(bytes, at: index)
                if atPercent?.category == .newline { continue }
                // The number before a `$`: digits as Unicode reads them (`numericType`), as this scan always has.
                var digitsEnd = index
                while digitsEnd < bytes.count {
                    if bytes[digitsEnd] >= UInt8(ascii: "0"), bytes[digitsEnd] <= UInt8(ascii: "9") {
                        digitsEnd += 1
                        continue
                    }
                    guard bytes[digitsEnd] >= 0x80, let digit = PrintfSpecifier.scalar(bytes, at: digitsEnd),
                          digit.value.properties.numericType != nil else { break }
                    digitsEnd += digit.length
                }
                let positional = digitsEnd > index && digitsEnd < bytes.count && bytes[digitsEnd] == UInt8(ascii: "$")
                    && bytes[index] != UInt8(ascii: "0")
                let conversion = positional ? digitsEnd + 1 : index
                // A `%` that starts no specification ("100% accurate") is a percent sign, not an argument.
                guard let specifier = conversion == index ? atPercent : PrintfSpecifier.read(bytes, at: conversion) else { continue }
                var number = sequential
                if positional {
                    number = Int(String(decoding: bytes[index..<digitsEnd], as: UTF8.self)) ?? sequential
                } else {
                    sequential += 1
                }
                let isSubstitution = conversion + 1 < bytes.count && bytes[conversion] == UInt8(ascii: "#") && bytes[conversion + 1] == UInt8(ascii: "@")
                index = conversion
                body(number, specifier, isSubstitution)
            }
        }
    }
}
