/// One printf conversion specification after its `%` and optional `N$`: flags, width, precision, length
/// modifier and conversion, as Apple's "String Format Specifiers" and Java's `Formatter` (Android's
/// `getString(id, args…)`) define them: `%@`, `%lld`, `%.1f`, `%06x`, `%-5s`, `%,d`, `%n`, `%tY`. A value type.
struct PrintfSpecifier: Sendable, Hashable {
    /// What the argument must be.
    enum Category: Sendable, Hashable {
        /// `%@`, `%s`, `%S`: an object or string.
        case text
        /// `%d`, `%i`, `%u`, `%o`, `%x`, `%X`, `%c` (with any length modifier): an integer.
        case integer
        /// `%f`, `%e`, `%g`, `%a` and their capitals: a floating-point number.
        case float
        /// Java's `%n`: a line separator, no argument.
        case newline
        /// `%b`, `%h`, `%p`, Java dates (`%tY`): an argument of some other kind.
        case other
    }

    /// How many scalars the specification takes after the `%` and `N$`.
    let length: Int
    /// How many UTF-8 bytes it takes.
    let utf8Length: Int
    /// The length modifier and conversion, e.g. "lld", "@", "x", "tY".
    let conversion: String
    let category: Category

    /// The space flag is left out on purpose: in real text `%` followed by a space is a percent sign
    /// ("50% of", "75 % seiner"), and reading `% o` as an octal conversion invents an argument.
    // Each set is a `switch`, not a `Set`: hashing every scalar looked at made `read` 11% of the `lint-xliff`
    // bench's lint time.
    private static func isFlag(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar { case "-", "#", "+", "0", ",", "(", "'": true; default: false }
    }
    private static func isLengthModifier(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar { case "l", "q", "j", "z", "L": true; default: false }
    }
    private static func isIntegerConversion(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar { case "d", "i", "u", "o", "x", "X", "c", "C", "D", "U", "O": true; default: false }
    }
    private static func isFloatConversion(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar { case "f", "F", "e", "E", "g", "G", "a", "A": true; default: false }
    }

    /// The specification at `start` in UTF-8 `bytes` (right after `%` and `N$`), or nil when no conversion ends it.
    /// Every byte of the grammar is ASCII but a date conversion's suffix (`%tY`), so the bytes are read as they are:
    /// reading scalars, with a copy of the rest of the text for each `%`, was most of the 42 million instructions
    /// the legends of one file of the `lint-xliff` bench cost (callgrind, 2 Dec 2026).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> PrintfSpecifier? {
        var index = start
        func at(_ i: Int) -> UInt8? { i < bytes.count ? bytes[i] : nil }
        while let byte = at(index), isFlag(Unicode.Scalar(byte)) { index += 1 }
        while let byte = at(index), isDigit(byte) { index += 1 }
        if at(index) == UInt8(ascii: ".") {
            index += 1
            while let byte = at(index), isDigit(byte) { index += 1 }
        }
        let modifierStart = index
        while let byte = at(index) {
            // `h` and `t` are length modifiers before an integer conversion (`%hd`, `%td`), else Java's hash and
            // date conversions.
            let scalar = Unicode.Scalar(byte)
            if isLengthModifier(scalar) || ((scalar == "h" || scalar == "t") && at(index + 1).map { isIntegerConversion(Unicode.Scalar($0)) || $0 == UInt8(ascii: "h") } == true) {
                index += 1
            } else {
                break
            }
        }
        // A conversion is ASCII: a byte of 0x80 or more starts some other scalar.
        guard let byte = at(index), byte < 0x80 else { return nil }
        let conversion = Unicode.Scalar(byte)
        index += 1
        let category: Category
        switch conversion {
        case "@", "s", "S": category = .text
        case "n": category = .newline
        case "b", "B", "h", "H", "p": category = .other
        case "t", "T":
            guard let suffix = scalar(bytes, at: index), suffix.value.properties.isAlphabetic else { return nil }
            index += suffix.length
            category = .other
        default:
            if isIntegerConversion(conversion) {
                category = .integer
            } else if isFloatConversion(conversion) {
                category = .float
            } else {
                return nil
            }
        }
        let scalars = bytes[start..<index].count { $0 & 0xC0 != 0x80 }
        return PrintfSpecifier(length: scalars, utf8Length: index - start,
                               conversion: conversionText(bytes[modifierStart..<index]), category: category)
    }

    /// The conversion's text: the usual ones (`@`, `s`, `d`, `lld`) as literals, which cost nothing to make, any
    /// other decoded from its bytes (decoding every one was 1.0 of the 222 million instructions of `lookd lint` on
    /// one `lint-xliff` bench file, callgrind, 3 Dec 2026).
    private static func conversionText(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        if bytes.count == 1 {
            switch bytes[bytes.startIndex] {
            case UInt8(ascii: "@"): return "@"
            case UInt8(ascii: "s"): return "s"
            case UInt8(ascii: "d"): return "d"
            default: break
            }
        } else if bytes.elementsEqual("lld".utf8) {
            return "lld"
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The scalar starting at `index` of UTF-8 `bytes` and how many bytes it takes; nil at the end or for bytes
    /// that are not UTF-8.
    static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (value: Unicode.Scalar, length: Int)? {
        guard index < bytes.count else { return nil }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[index...].makeIterator()
        guard case .valid(let encoded) = parser.parseScalar(from: &iterator) else { return nil }
        return (Unicode.UTF8.decode(encoded), encoded.count)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The specification at the start of `scalars` (right after `%` and `N$`), or nil when no conversion ends it.
    static func read(_ scalars: ArraySlice<Unicode.Scalar>) -> PrintfSpecifier? {
        var text = String(String.UnicodeScalarView(scalars))
        return text.withUTF8 { read($0, at: 0) }
    }

    /// The specification at the start of `text`.
    static func read(_ text: Substring) -> PrintfSpecifier? {
        var text = String(text)
        return text.withUTF8 { read($0, at: 0) }
    }
}
