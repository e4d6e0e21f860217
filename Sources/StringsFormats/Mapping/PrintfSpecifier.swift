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

    /// The specification at the start of `scalars` (right after `%` and `N$`), or nil when no conversion ends it.
    static func read(_ scalars: ArraySlice<Unicode.Scalar>) -> PrintfSpecifier? {
        var index = scalars.startIndex
        func at(_ i: Int) -> Unicode.Scalar? { i < scalars.endIndex ? scalars[i] : nil }
        while let scalar = at(index), isFlag(scalar) { index += 1 }
        while let scalar = at(index), ("0"..."9").contains(scalar) { index += 1 }
        if at(index) == "." {
            index += 1
            while let scalar = at(index), ("0"..."9").contains(scalar) { index += 1 }
        }
        let modifierStart = index
        while let scalar = at(index) {
            // `h` and `t` are length modifiers before an integer conversion (`%hd`, `%td`), else Java's hash and
            // date conversions.
            if isLengthModifier(scalar) || ((scalar == "h" || scalar == "t") && at(index + 1).map { isIntegerConversion($0) || $0 == "h" } == true) {
                index += 1
            } else {
                break
            }
        }
        guard let conversion = at(index) else { return nil }
        index += 1
        var spelled = ""
        for scalar in scalars[modifierStart..<index] { spelled.unicodeScalars.append(scalar) }
        let category: Category
        switch conversion {
        case "@", "s", "S": category = .text
        case "n": category = .newline
        case "b", "B", "h", "H", "p": category = .other
        case "t", "T":
            guard let suffix = at(index), suffix.properties.isAlphabetic else { return nil }
            index += 1
            spelled.unicodeScalars.append(suffix)
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
        return PrintfSpecifier(length: index - scalars.startIndex, conversion: spelled, category: category)
    }

    /// The specification at the start of `text`.
    static func read(_ text: Substring) -> PrintfSpecifier? { read(text.unicodeScalars) }

    /// The specification at the start of `scalars`. Only the scalars `read` can look at are copied: the run of flags,
    /// digits, `.` and length modifiers, then the conversion and a date suffix (copying the whole rest of the text
    /// for each `%` made reading a file's legends 11.7% of the `lint-xliff` bench's lint time).
    static func read(_ scalars: Substring.UnicodeScalarView) -> PrintfSpecifier? {
        var end = scalars.startIndex
        while end < scalars.endIndex, isSpecificationPrefix(scalars[end]) { end = scalars.index(after: end) }
        for _ in 0..<2 where end < scalars.endIndex { end = scalars.index(after: end) }
        return read(ArraySlice(scalars[scalars.startIndex..<end]))
    }

    /// Every scalar that can come before a conversion: flags, width and precision digits, `.`, length modifiers.
    private static func isSpecificationPrefix(_ scalar: Unicode.Scalar) -> Bool {
        isFlag(scalar) || isLengthModifier(scalar) || ("0"..."9").contains(scalar) || scalar == "." || scalar == "h" || scalar == "t"
    }
}
