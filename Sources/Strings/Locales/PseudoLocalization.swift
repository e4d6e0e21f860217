/// Pseudo-locale patterns generated from English MessageFormat patterns, as Android's pseudo-locales do, so that
/// layout problems (truncation, hard-coded strings, mirroring) show before any translator has worked.
///
/// Only literal text changes: argument names, types and styles, plural/select keys, `#`, apostrophe quoting and
/// quoted text are copied unchanged, so the result parses to the same arguments and keys as the English pattern.
/// - en-XA (`LocaleTag.pseudoAccented`): every ASCII letter accented ("Send" → "Šéñð"), padding words added at the
///   end for about 40 % more length, the whole message in brackets: "[Šéñð one]". Still readable.
/// - ar-XB (`LocaleTag.pseudoBidi`): every word of literal text forced right to left (RLM RLO word PDF RLM), so it
///   shows mirrored inside a right-to-left layout.
///
/// Pure functions of their input; thread-safe.
public enum PseudoLocalization {
    /// The pseudo-locale form of an English pattern for `locale`; the pattern unchanged when `locale` is not a
    /// pseudo-locale. An empty pattern stays empty.
    public static func pattern(_ english: String, for locale: LocaleTag) -> String {
        guard !english.isEmpty else { return english }
        switch locale {
        case .pseudoAccented: return accented(english)
        case .pseudoBidi: return mirrored(english)
        default: return english
        }
    }

    /// The share of extra length en-XA adds, in padding words (0.4: about 40 % longer).
    public static let expansion = 0.4

    static func accented(_ english: String) -> String {
        var scanner = PatternRewriter(english) { run in
            String(String.UnicodeScalarView(run.unicodeScalars.map { accents[$0] ?? $0 }))
        }
        let length = scanner.message(inPlural: false)
        let target = Int((Double(length) * expansion).rounded(.up))
        var padding = ""
        for word in paddingWords.joined(separator: " ").split(separator: " ") where padding.count < target {
            padding += " " + word
        }
        return "[" + String(scanner.out) + padding + "]"
    }

    static func mirrored(_ english: String) -> String {
        var scanner = PatternRewriter(english) { run in
            var result = ""
            var word = ""
            for character in run {
                if character.isWhitespace {
                    if !word.isEmpty { result += "\u{200F}\u{202E}" + word + "\u{202C}\u{200F}" }
                    word = ""
                    result.append(character)
                } else {
                    word.append(character)
                }
            }
            if !word.isEmpty { result += "\u{200F}\u{202E}" + word + "\u{202C}\u{200F}" }
            return result
        }
        _ = scanner.message(inPlural: false)
        return String(scanner.out)
    }

    private static let paddingWords = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                       "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                                       "eighteen", "nineteen", "twenty"]

    /// Android's accent table (a → å, b → ƀ, …), one precomposed scalar per ASCII letter.
    private static let accents: [Unicode.Scalar: Unicode.Scalar] = {
        let plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        let marked = "åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"
        return Dictionary(uniqueKeysWithValues: zip(plain.unicodeScalars, marked.unicodeScalars))
    }()
}

/// Copies a MessageFormat pattern, passing each run of literal text through `rewrite` (ICU's apostrophe mode:
/// `''` is an apostrophe, `'` before `{`, `}`, `|` or (in a plural) `#` quotes up to the next lone `'`).
private struct PatternRewriter {
    let source: [Unicode.Scalar]
    let rewrite: (String) -> String
    var index = 0
    var out = String.UnicodeScalarView()
    /// The nesting level of the message being copied. Branches past `MessageNestingLimit.levels` are copied
    /// unchanged without recursing (the pattern is refused when it is parsed anyway).
    private var depth = 0

    init(_ pattern: String, rewrite: @escaping (String) -> String) {
        source = Array(pattern.unicodeScalars)
        self.rewrite = rewrite
    }

    private func at(_ offset: Int) -> Unicode.Scalar? {
        index + offset < source.count ? source[index + offset] : nil
    }

    /// Copies one message up to (not including) its closing `}` or the end. Returns its longest display length in
    /// code points: literal text, 1 per simple argument or `#`, the longest branch of each plural/select.
    mutating func message(inPlural: Bool) -> Int {
        var run = ""
        var length = 0
        func flush(_ run: inout String, _ out: inout String.UnicodeScalarView, _ rewrite: (String) -> String) {
            guard !run.isEmpty else { return }
            out.append(contentsOf: rewrite(run).unicodeScalars)
            run = ""
        }
        while let c = at(0) {
            if c == "'" {
                if at(1) == "'" {
                    run += "''" // an apostrophe: part of the word, rewritten never splits the pair
                    length += 1
                    index += 2
                    continue
                }
                if let next = at(1), next == "{" || next == "}" || next == "|" || (inPlural && next == "#") {
                    flush(&run, &out, rewrite)
                    length += copyQuoted()
                    continue
                }
            }
            if c == "{" {
                flush(&run, &out, rewrite)
                length += argument()
                continue
            }
            if c == "}" { break }
            if c == "#" && inPlural {
                flush(&run, &out, rewrite)
                out.append(c)
                length += 1
                index += 1
                continue
            }
            run.unicodeScalars.append(c)
            length += 1
            index += 1
        }
        flush(&run, &out, rewrite)
        return length
    }

    /// Copies `'…'` unchanged; returns the code points it shows.
    private mutating func copyQuoted() -> Int {
        out.append(source[index])
        index += 1
        var shown = 0
        while let c = at(0) {
            out.append(c)
            index += 1
            if c == "'" {
                if at(0) == "'" {
                    out.append("'")
                    index += 1
                    shown += 1
                    continue
                }
                break
            }
            shown += 1
        }
        return shown
    }

    /// Copies an argument from its `{` through its `}`, rewriting the messages of plural, select and
    /// selectordinal branches. Returns its display length (1 for a simple argument).
    private mutating func argument() -> Int {
        out.append(source[index])
        index += 1
        let nameEnd = copy(until: [",", "}"])
        guard nameEnd == "," else { return closeSimple() }
        out.append(",")
        index += 1
        let typeStart = index
        let typeEnd = copy(until: [",", "}"])
        let type = String(String.UnicodeScalarView(source[typeStart..<index])).trimmingWhitespace()
        guard typeEnd == ",", type == "plural" || type == "select" || type == "selectordinal" else {
            return closeSimple()
        }
        out.append(",")
        index += 1
        var longest = 0
        while let c = at(0) {
            index += 1
            out.append(c)
            if c == "}" { break }
            if c == "{" {
                guard depth < MessageNestingLimit.levels else {
                    _ = closeSimple()
                    continue
                }
                depth += 1
                longest = max(longest, message(inPlural: type != "select"))
                depth -= 1
                if let close = at(0) {
                    out.append(close)
                    index += 1
                }
            }
        }
        return longest
    }

    /// Copies scalars until one of `stops` (not copied) or the end; returns the stop found.
    private mutating func copy(until stops: Set<Unicode.Scalar>) -> Unicode.Scalar? {
        while let c = at(0) {
            if stops.contains(c) { return c }
            out.append(c)
            index += 1
        }
        return nil
    }

    /// Copies the rest of a simple (or choice) argument through its matching `}`, quote-aware. Returns 1.
    private mutating func closeSimple() -> Int {
        var depth = 1
        var quoted = false
        while let c = at(0) {
            out.append(c)
            index += 1
            if c == "'" {
                quoted.toggle()
            } else if !quoted && c == "{" {
                depth += 1
            } else if !quoted && c == "}" {
                depth -= 1
                if depth == 0 { break }
            }
        }
        return 1
    }
}
