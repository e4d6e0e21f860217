/// A case ending, postposition or particle written straight onto a plain argument (`{appName}ର`, `{product}-এর`,
/// `{appName}-tiimi`, `{plan}을`) in a language where that ending is a suffix whose form depends on how the word
/// before it ends. A plain argument holds text the translator never sees — an app, product or plan name, often
/// Latin and several words long ("Ledgerly Plus") — so the ending's form cannot be chosen, and a native script's
/// letters glued to a Latin name read as broken. A native speaker puts a noun after the name and lets the noun take
/// the ending (`{appName} ଆପର`, `{plan} திட்டத்திற்கு`).
///
/// Only plain arguments are checked: a date, time or number argument renders the same way for every value of a
/// given locale, so its ending can be chosen, and a plain `{count}` next to a typed use of the same argument (in
/// the pattern or in the source) is a number. Japanese is not checked: its particles (の, は, に) never change form
/// and are written straight after names. Korean is checked only for the particles that alternate after a vowel
/// or a consonant (을/를, 이/가, 은/는, 와/과, (으)로, 아/야, (이)랑); 의, 에, 에서, 도 are invariant.
///
/// Pure; thread-safe.
enum SuffixOnPlainArgument {
    /// One ending joined to an argument.
    struct Join: Equatable, Sendable {
        /// The argument's name.
        let argument: String
        /// Offset in code points, from the pattern's start, of the first character after the argument's `}`.
        let offset: Int
        /// The joined text as written: a joiner, if any, and the letters after it ("ର", "-এর", "을").
        let suffix: String
    }

    /// Languages (lowercased primary subtags) whose case endings and postpositions attach to the word and change
    /// form with it: Indic and Dravidian, Turkic and Uralic; and Korean for its alternating particles.
    static func applies(toLanguage language: String) -> Bool {
        suffixing.contains(language) || language == "ko"
    }

    private static let suffixing: Set<String> = [
        "as", "bn", "gu", "hi", "kn", "ml", "mr", "ne", "or", "pa", "si", "ta", "te", "ur", // Indic, Dravidian
        "az", "kk", "ky", "tk", "tr", "tt", "uz", // Turkic
        "et", "fi", "hu", // Uralic
    ]

    /// First syllables of the Korean particles whose form depends on whether the word ends in a vowel.
    private static let alternatingKoreanParticles: Set<Unicode.Scalar> = ["을", "를", "이", "가", "은", "는", "와", "과", "으", "로", "아", "야", "랑"]

    /// What joins a suffix to a word in software text: hyphens, apostrophes (Turkish `'a`), the Finnish colon (`:n`).
    private static let joiners: Set<Unicode.Scalar> = ["-", "\u{2010}", "\u{2011}", "'", "\u{2019}", "\u{02BC}", ":"]

    /// The joins in `pattern` (already parsed as `structure`) for a catalog of `language`. `typedInSource` names
    /// the arguments the source uses with a type (number, date, plural, select…): see `typedNames(in:)`.
    static func joins(in pattern: String, structure: LintPattern, language: String,
                      typedInSource: Set<String> = []) -> [Join] {
        guard applies(toLanguage: language) else { return [] }
        let typed = typedNames(in: structure.argumentSignature).union(typedInSource)
        let scalars = Array(pattern.unicodeScalars)
        var result: [Join] = []
        for argument in structure.arguments where argument.type == .string && argument.typeWord == nil {
            guard !typed.contains(argument.name),
                  let close = closingBrace(after: argument, in: scalars) else { continue }
            let next = close + 1
            guard next < scalars.count, isSuffix(at: next, in: scalars, language: language) else { continue }
            var end = joiners.contains(scalars[next]) ? next + 1 : next
            while end < scalars.count, isWordPart(scalars[end]) { end += 1 }
            var suffix = String.UnicodeScalarView()
            suffix.append(contentsOf: scalars[next..<end])
            result.append(Join(argument: argument.name, offset: next, suffix: String(suffix)))
        }
        return result
    }

    /// The arguments of a signature used with a type other than plain: a plain use of one of them is a number.
    static func typedNames(in signature: [(name: String, types: ArgumentTypeSet)]) -> Set<String> {
        Set(signature.filter { $0.types.essential != ArgumentTypeSet(.string) }.map(\.name))
    }

    /// Whether the text at `index` (right after an argument) is an ending attached to it.
    private static func isSuffix(at index: Int, in scalars: [Unicode.Scalar], language: String) -> Bool {
        let first = scalars[index]
        if language == "ko" { return alternatingKoreanParticles.contains(first) }
        if isWordPart(first) { return true }
        return joiners.contains(first) && index + 1 < scalars.count && isWordPart(scalars[index + 1])
    }

    /// Letters, combining marks (Indic vowel signs, viramas) and the zero-width (non-)joiners between them.
    private static func isWordPart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\u{200C}" || scalar == "\u{200D}" { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// The offset of the `}` that closes a plain argument whose name starts at `argument.offset`.
    private static func closingBrace(after argument: LintPattern.Argument, in scalars: [Unicode.Scalar]) -> Int? {
        var index = argument.offset + argument.name.unicodeScalars.count
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        return index < scalars.count && scalars[index] == "}" ? index : nil
    }
}
