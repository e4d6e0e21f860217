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
        // Without a `%` all of it is text too, found with one byte search (most texts of real files).
        guard text.containsUTF8(UInt8(ascii: "%")) else { return text.isEmpty ? [] : [.text(text)] }
        var storage = text
        // The UTF-8 bytes are read, not scalars: every byte of a specifier is ASCII, and text between specifiers is
        // copied as one slice (an array of scalars and of their indices per text was most of the 48 million
        // instructions this parse cost on one file of the `lint-xliff` bench; callgrind, 2 Dec 2026).
        return try storage.withUTF8 { bytes in
            var pieces = PrintfPieceBuilder()
            try read(bytes, text: text, legend: legend, countArgument: countArgument, slots: slots, fail: fail, into: &pieces)
            return pieces.finish()
        }
    }

    /// Reads the UTF-8 `bytes` of format string `text` (which error messages quote) into `sink`, in order: its text
    /// (runs as written, and the `%` of `%%` and line separator of `%n` as one character each) and its pieces that are
    /// no text. Throws what `fail` makes, as `parse` documents; `sink` then has part of the text.
    func read<Sink: PrintfReadingSink>(_ bytes: UnsafeBufferPointer<UInt8>, text: String, legend: ArgumentLegend, countArgument: Int?,
                                       slots: [String: Int], fail: (String, ConversionError.Problem.Kind) -> ConversionError,
                                       into sink: inout Sink) throws {
        func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(character.value) }
        let count = bytes.count
        /// The text from `runStart` up to the byte being read is not in `sink` yet.
        var runStart = 0
        var nextSequential = 1
        var index = 0
        func takeRun(upTo end: Int) {
            if end > runStart { sink.text(bytes[runStart..<end]) }
            runStart = end
        }
        while index < count {
            guard bytes[index] == ascii("%") else {
                index = UTF8Words.firstIndex(of: ascii("%"), in: bytes, from: index)
                continue
            }
            takeRun(upTo: index)
            let start = index
            index += 1
            defer { runStart = index }
            if index < count, bytes[index] == ascii("%") {
                sink.character(ascii("%"))
                index += 1
                continue
            }
            if countArgument != nil, index + 3 <= count, bytes[index] == ascii("a"), bytes[index + 1] == ascii("r"), bytes[index + 2] == ascii("g") {
                sink.piece(.count)
                index += 3
                continue
            }
            // Read once here; read again below only when `N$` moves the specification on (each read writes its
            // conversion as a string: two reads per specifier were 4.0 of the 263 million instructions of `lookd lint`
            // on one `lint-xliff` bench file, callgrind, 3 Dec 2026).
            let atPercent = PrintfSpecifier.read(bytes, at: index)
            let percentIndex = index
            // Java's %n: a line separator, no argument.
            if let newline = atPercent, newline.category == .newline {
                sink.character(ascii("\n"))
                index += newline.utf8Length
                continue
            }
            var digitsEnd = index
            while digitsEnd < count, bytes[digitsEnd] >= ascii("0"), bytes[digitsEnd] <= ascii("9") { digitsEnd += 1 }
            var number: Int?
            /// The bytes of `N` in `%N$`, written out only for an error message.
            var numberDigits = index..<index
            // `%2$d` names its argument; `%06x` and `%5s` are a width (read with the specification below). The number
            // is read from the bytes, as `Int` reads its digits (nil past `Int.max`), not from a string made of them.
            if digitsEnd > index, digitsEnd < count, bytes[digitsEnd] == ascii("$"), let value = Self.decimal(bytes[index..<digitsEnd]) {
                number = value
                numberDigits = index..<digitsEnd
                index = digitsEnd + 1
            }
            if index + 1 < count, bytes[index] == ascii("#"), bytes[index + 1] == ascii("@") {
                index += 2
                let nameStart = index
                while index < count, bytes[index] != ascii("@") { index += 1 }
                let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
                guard index < count, let slot = slots[name] else { throw fail("substitution '%#@\(name)@' has no definition", .argument) }
                index += 1
                sink.piece(.plural(slot))
                continue
            }
            guard index < count else { throw fail("specifier at the end of '\(text)' is incomplete", .syntax) }
            guard let specification = index == percentIndex ? atPercent : PrintfSpecifier.read(bytes, at: index) else {
                // Quoted up to the scalar after the `%` (and its `N$`), all of its bytes.
                var end = min(index + 1, count)
                while end < count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                throw fail("malformed specifier '\(String(decoding: bytes[start..<end], as: UTF8.self))' (a percent sign is '%%' in a string with arguments)", .syntax)
            }
            let conversion = specification.conversion
            index += specification.utf8Length
            let resolved = number ?? nextSequential
            if number == nil { nextSequential += 1 }
            guard resolved >= 1, resolved <= legend.entries.count else {
                let digits = String(decoding: bytes[numberDigits], as: UTF8.self)
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
            sink.piece(resolved == countArgument ? .count : .argument(resolved))
        }
        takeRun(upTo: count)
    }

    /// The value of ASCII decimal `digits`, or nil past `Int.max`, as `Int(String)` reads them.
    static func decimal(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var value = 0
        for digit in digits {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            if overflow || overflowSum { return nil }
            value = sum
        }
        return value
    }
}
