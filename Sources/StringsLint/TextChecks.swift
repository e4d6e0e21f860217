import Strings
/// Character-level checks on one message value: control characters, bidi balance, edge whitespace and final
/// punctuation. Pure functions over Unicode scalars; offsets are scalar indices into the value.
enum TextChecks {
    /// False when the UTF-8 holds no control character (C0, DEL, C1) and no bidi control (U+202A…202E,
    /// U+2066…2069): the usual case, decided on the bytes without decoding.
    static func mayHaveControlOrBidi(_ value: String) -> Bool {
        var copy = value
        return copy.withUTF8 { bytes in
            let count = bytes.count
            var index = 0
            // Eight ASCII bytes at a time while there are eight: one with a byte below 0x20 or equal to 0x7F is a
            // control (exact word tests: "Bit Twiddling Hacks", hasless and haszero); at the first word with a byte of
            // 0x80 or more the bytes are read one by one from there. Byte by byte all the way, this took 3.4 of the 266
            // million instructions of `lookd lint` on one `lint-xliff` bench file (callgrind, 3 Dec 2026).
            if let base = bytes.baseAddress {
                let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
                while index + 8 <= count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if word & highs != 0 { break }
                    let below20 = (word &- ones &* 0x20) & ~word & highs
                    let flipped = word ^ (ones &* 0x7F)
                    let equal7F = (flipped &- ones) & ~flipped & highs
                    if below20 | equal7F != 0 { return true }
                    index += 8
                }
            }
            while index < count {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x7F { return true }
                if byte == 0xC2, index + 1 < count, bytes[index + 1] < 0xA0 { return true } // C1
                if byte == 0xE2, index + 2 < count {
                    let second = bytes[index + 1], third = bytes[index + 2]
                    if second == 0x80, (0xAA...0xAE).contains(third) { return true } // U+202A…202E
                    if second == 0x81, (0xA6...0xA9).contains(third) { return true } // U+2066…2069
                }
                index += 1
            }
            return false
        }
    }

    /// The first control character other than newline and tab (C0, DEL, C1), and how many there are.
    static func controlCharacters(_ value: String) -> (offset: Int, scalar: Unicode.Scalar, count: Int)? {
        var first: (Int, Unicode.Scalar)?
        var count = 0
        for (offset, scalar) in value.unicodeScalars.enumerated() {
            let v = scalar.value
            guard v < 0x20 || (0x7F...0x9F).contains(v), v != 0x0A, v != 0x09 else { continue }
            if first == nil { first = (offset, scalar) }
            count += 1
        }
        return first.map { ($0.0, $0.1, count) }
    }

    /// A bidi control that is opened and never closed, or closed without being opened: its offset and a
    /// description. Follows UAX #9's pairing: PDI closes the innermost open isolate (and any embeddings inside it),
    /// PDF closes the innermost embedding or override when no isolate is in between.
    static func unbalancedBidi(_ value: String) -> (offset: Int, problem: String)? {
        var stack: [(offset: Int, scalar: UInt32)] = []
        for (offset, scalar) in value.unicodeScalars.enumerated() {
            let v = scalar.value
            switch v {
            case 0x202A...0x202B, 0x202D...0x202E, 0x2066...0x2068:
                stack.append((offset, v))
            case 0x202C: // PDF
                guard let top = stack.last, !isIsolate(top.scalar) else {
                    return (offset, "U+202C POP DIRECTIONAL FORMATTING closes no embedding or override")
                }
                stack.removeLast()
            case 0x2069: // PDI
                guard let isolate = stack.lastIndex(where: { isIsolate($0.scalar) }) else {
                    return (offset, "U+2069 POP DIRECTIONAL ISOLATE closes no isolate")
                }
                if isolate < stack.count - 1 {
                    let open = stack[isolate + 1]
                    return (open.offset, "\(name(open.scalar)) is not closed before the isolate around it ends")
                }
                stack.removeLast()
            default:
                continue
            }
        }
        guard let open = stack.first else { return nil }
        return (open.offset, "\(name(open.scalar)) is opened and never closed (\(isIsolate(open.scalar) ? "U+2069 PDI" : "U+202C PDF") missing)")
    }

    private static func isIsolate(_ v: UInt32) -> Bool { (0x2066...0x2068).contains(v) }

    private static func name(_ v: UInt32) -> String {
        switch v {
        case 0x202A: "U+202A LEFT-TO-RIGHT EMBEDDING"
        case 0x202B: "U+202B RIGHT-TO-LEFT EMBEDDING"
        case 0x202D: "U+202D LEFT-TO-RIGHT OVERRIDE"
        case 0x202E: "U+202E RIGHT-TO-LEFT OVERRIDE"
        case 0x2066: "U+2066 LEFT-TO-RIGHT ISOLATE"
        case 0x2067: "U+2067 RIGHT-TO-LEFT ISOLATE"
        default: "U+2068 FIRST STRONG ISOLATE"
        }
    }

    /// Whether a display text starts / ends with whitespace.
    static func edgeWhitespace(_ text: String) -> Edges {
        var copy = text
        return copy.withUTF8 { edgeWhitespace(head: $0, tail: $0) }
    }

    /// Whether a display text starts with whitespace, told from `head`, and ends with whitespace, told from `tail`:
    /// the text's UTF-8 up to its first placeholder and after its last (`LintPattern.withDisplayEnds`; the whole
    /// text twice when it has none). A placeholder is not whitespace, so an empty slice is no whitespace.
    ///
    /// The edges are read from the bytes, an ASCII byte being a whole scalar: read as Unicode scalars, `checkEdges`
    /// (with `edgeWhitespace` and `finalPunctuation`) took 9.4 of the 272 million instructions of `lookd lint` on one
    /// `lint-xliff` bench file, from the bytes 3.3 (callgrind, 3 Dec 2026): most texts end in ASCII.
    static func edgeWhitespace(head: UnsafeBufferPointer<UInt8>, tail: UnsafeBufferPointer<UInt8>) -> Edges {
        Edges(leading: !head.isEmpty && isWhitespace(scalar(startingAt: 0, in: head)),
              trailing: !tail.isEmpty && isWhitespace(scalar(startingAt: scalarStart(before: tail.count, in: tail), in: tail)))
    }

    /// The scalar whose UTF-8 starts at `start` of the well-formed UTF-8 `bytes`.
    private static func scalar(startingAt start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar {
        let lead = UInt32(bytes[start])
        if lead < 0x80 { return Unicode.Scalar(UInt8(lead)) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = lead & (0x7F >> UInt32(length))
        for index in (start + 1)..<(start + length) { value = value << 6 | UInt32(bytes[index] & 0x3F) }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// Where the scalar that ends at `end` (exclusive, above 0) starts in the well-formed UTF-8 `bytes`.
    private static func scalarStart(before end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var start = end - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return start
    }

    /// Whether the UTF-8 text `bytes` ends with full-width CJK punctuation (、。，：；！？), whose glyph carries its own
    /// trailing spacing: where the source ends with a space (a starter the person continues), such a translation needs
    /// none.
    static func endsWithSpacedFullWidthPunctuation(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let lastByte = bytes.last, lastByte >= 0x80 else { return false }
        let last = scalar(startingAt: scalarStart(before: bytes.count, in: bytes), in: bytes)
        return ["\u{3001}", "\u{3002}", "\u{FF0C}", "\u{FF1A}", "\u{FF1B}", "\u{FF01}", "\u{FF1F}"].contains(last)
    }

    struct Edges: Equatable {
        let leading: Bool
        let trailing: Bool
    }

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (0x09...0x0D).contains(scalar.value) }
        return scalar.properties.isWhitespace
    }

    /// How a display text ends, for comparing sentence-final punctuation across scripts.
    enum FinalPunctuation: String {
        case none, fullStop = "a full stop", question = "a question mark", exclamation = "an exclamation mark"
        case colon = "a colon", ellipsis = "an ellipsis"

        /// The case's name (`fullStop`), as `"\(value)"` prints it: the finding's subject. A switch, not printing by
        /// reflection, which took 3.8 of the 296 million instructions of `lookd lint` on one `lint-xliff` bench file
        /// for its 35 end-punctuation findings (callgrind, 3 Dec 2026).
        var caseName: String {
            switch self {
            case .none: "none"
            case .fullStop: "fullStop"
            case .question: "question"
            case .exclamation: "exclamation"
            case .colon: "colon"
            case .ellipsis: "ellipsis"
            }
        }
    }

    /// The final punctuation of `text` (trailing whitespace and closing quotes or brackets skipped), in `language`
    /// (Greek writes the question mark as ';').
    static func finalPunctuation(_ text: String, language: String) -> FinalPunctuation {
        var copy = text
        return copy.withUTF8 { finalPunctuation(utf8: $0, language: language) }
    }

    /// `finalPunctuation` of the UTF-8 text `bytes` (a display text's `tail`: a placeholder before it ends no
    /// sentence, as an empty tail does not).
    static func finalPunctuation(utf8 bytes: UnsafeBufferPointer<UInt8>, language: String) -> FinalPunctuation {
        // A last byte that is ASCII and neither whitespace, a control nor a closer is the last scalar left; a full
        // stop looks at the two bytes before it for `...`.
        if let last = bytes.last, last < 0x80 {
            switch last {
            case 0...0x20, 0x7F, UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ")"), UInt8(ascii: "]"): break
            case UInt8(ascii: "?"): return .question
            case UInt8(ascii: ";"): return language == "el" ? .question : .none
            case UInt8(ascii: "!"): return .exclamation
            case UInt8(ascii: ":"): return .colon
            case UInt8(ascii: "."): return endsWithThreeFullStops(bytes, end: bytes.count) ? .ellipsis : .fullStop
            default: return .none
            }
        }
        var end = bytes.count
        var found: Unicode.Scalar?
        while end > 0 {
            let start = scalarStart(before: end, in: bytes)
            let scalar = scalar(startingAt: start, in: bytes)
            if !isWhitespace(scalar), !isCloser(scalar) {
                found = scalar
                break
            }
            end = start
        }
        guard let last = found else { return .none }
        switch last {
        case "…", "⋯", "︙": return .ellipsis
        case ".": return endsWithThreeFullStops(bytes, end: end) ? .ellipsis : .fullStop
        case "．": return .fullStop
        case "。", "｡", "।", "॥", "۔", "։", "።", "᙮", "꓿": return .fullStop
        case "?", "？", "؟", "՞", "፧", "\u{037E}": return .question
        case ";" where language == "el": return .question
        case "!", "！", "՜", "߹": return .exclamation
        case ":", "：", "︓", "፥": return .colon
        default: return .none
        }
    }

    /// Whether the three bytes before `end` are `...` (a byte 0x2E is always a whole scalar).
    private static func endsWithThreeFullStops(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Bool {
        end >= 3 && bytes[end - 1] == UInt8(ascii: ".") && bytes[end - 2] == UInt8(ascii: ".") && bytes[end - 3] == UInt8(ascii: ".")
    }

    /// Languages whose writing does not end sentences with a full stop as a rule (a missing one is not reported).
    static let optionalFullStop: Set<String> = ["th", "lo", "my", "km"]

    /// A closing quote or bracket. A switch, not a `Set` that hashes each final scalar: `finalPunctuation` took 7.3
    /// of the 382 million instructions of `lookd lint` on one `lint-xliff` bench file with the set, 5.9 with this
    /// (callgrind, 2 Dec 2026).
    private static func isCloser(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\"", "'", ")", "]", "”", "’", "»", "›", "」", "』", "）", "〕", "】": true
        default: false
        }
    }
}
