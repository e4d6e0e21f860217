import Foundation
import Strings
import Locking

/// A space between a date or time argument and Chinese or Japanese text, on a side where the argument itself
/// shows CJK text: `{date, date, ::dMMM}` renders as "11月3日" in zh and ja, so "将于 {date} 续订" shows
/// "将于 11月3日 续订", with a gap between 日 and 续 that these languages never write. A side where the argument
/// shows digits ("01:05", the start of "11月3日") is not reported: a space between Han and digits is the usual
/// Apple style ("已读 {time}").
///
/// What the argument shows is ICU's rendering of the argument alone (`{0, date, ::dMMM}`) for the catalog's locale
/// at several sample times, so the check follows the locale's own date and time patterns ("下午1:05" in zh-Hant).
/// Pure apart from a process-wide cache of those renderings; thread-safe.
enum CJKPlaceholderSpacing {
    /// One reported gap.
    struct Gap: Equatable, Sendable {
        /// The argument's name.
        let argument: String
        /// Whether the space is before or after the argument.
        let side: Side
        /// The space's offset in code points from the pattern's start (the one next to the argument).
        let spaceOffset: Int
        /// A sample rendering of the argument whose edge on `side` is CJK text.
        let rendered: String
    }

    enum Side: String, Sendable {
        case before, after
    }

    /// Whether the check applies to a catalog of `language` (a lowercased primary subtag).
    static func applies(toLanguage language: String) -> Bool { language == "zh" || language == "ja" }

    /// The gaps in `pattern` (already parsed as `structure`) for the locale `tag`. Date and time arguments whose
    /// style ICU refuses, or whose braces cannot be found, are skipped (the syntax checks report those).
    static func gaps(in pattern: String, structure: LintPattern, tag: String) -> [Gap] {
        let dated = structure.arguments.filter { ($0.type == .date || $0.type == .time) && $0.typeWord != nil }
        guard !dated.isEmpty else { return [] }
        let scalars = Array(pattern.unicodeScalars)
        var result: [Gap] = []
        for argument in dated {
            guard let (open, close) = braces(around: argument.offset, in: scalars),
                  let edges = renderedEdges(typeWord: argument.typeWord!, style: argument.style, tag: tag) else { continue }
            if let first = edges.first, let space = spaceRun(before: open, in: scalars) {
                result.append(Gap(argument: argument.name, side: .before, spaceOffset: space, rendered: first))
            }
            if let last = edges.last, let space = spaceRun(after: close, in: scalars) {
                result.append(Gap(argument: argument.name, side: .after, spaceOffset: space, rendered: last))
            }
        }
        return result
    }

    /// Han ideographs, kana, and CJK punctuation and full-width forms: text that takes no space next to a
    /// date in Chinese or Japanese.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3000...0x303F, // CJK symbols and punctuation (、。「」々〆)
             0x3040...0x30FF, // hiragana, katakana
             0x31F0...0x31FF, // katakana phonetic extensions
             0x3400...0x4DBF, // CJK extension A
             0x4E00...0x9FFF, // CJK unified ideographs
             0xF900...0xFAFF, // CJK compatibility ideographs
             0xFF01...0xFF60, // full-width forms (：，！？)
             0xFF66...0xFF9F, // half-width katakana
             0x20000...0x3134F: // CJK extensions B–G
            true
        default:
            false
        }
    }

    // MARK: - Pattern scanning

    /// The offsets of the `{` and `}` of the simple argument whose name starts at `nameOffset`.
    private static func braces(around nameOffset: Int, in scalars: [Unicode.Scalar]) -> (Int, Int)? {
        var open = nameOffset - 1
        while open >= 0, scalars[open] != "{" {
            guard scalars[open].properties.isWhitespace else { return nil }
            open -= 1
        }
        guard open >= 0 else { return nil }
        var depth = 0
        var index = open
        while index < scalars.count {
            switch scalars[index] {
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { return (open, index) }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The offset of the space right before `open`, when a run of spaces there is preceded by CJK text.
    private static func spaceRun(before open: Int, in scalars: [Unicode.Scalar]) -> Int? {
        var index = open - 1
        while index >= 0, isSpace(scalars[index]) { index -= 1 }
        guard index < open - 1, index >= 0, isCJK(scalars[index]) else { return nil }
        return open - 1
    }

    /// The offset of the space right after `close`, when a run of spaces there is followed by CJK text.
    private static func spaceRun(after close: Int, in scalars: [Unicode.Scalar]) -> Int? {
        var index = close + 1
        while index < scalars.count, isSpace(scalars[index]) { index += 1 }
        guard index > close + 1, index < scalars.count, isCJK(scalars[index]) else { return nil }
        return close + 1
    }

    /// Spaces within a line (not newlines, which a message may use to break lines on purpose); U+3000 counts too.
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\n" && scalar != "\r" && scalar.properties.isWhitespace
    }

    // MARK: - Rendering

    /// For one argument type and style in one locale: a sample rendering that starts with CJK text (`first`) and
    /// one that ends with it (`last`), nil where no sample does. Nil when ICU refuses the argument.
    private struct Edges: Sendable {
        let first: String?
        let last: String?
    }

    /// Sample instants: one day, hours across the day so every day-period word ("凌晨", "上午", "下午", "晚上") shows.
    private static let samples: [Date] = [1, 9, 13, 20].map { hour in
        Date(timeIntervalSince1970: 1_793_664_000 + Double(hour * 3_600 + 300)) // 2026-11-03 hh:05 UTC
    }

    private static let cache = LockedValue<[String: Edges?]>([:])

    private static func renderedEdges(typeWord: String, style: String?, tag: String) -> Edges? {
        let single = "{d, \(typeWord)" + (style.map { ", \($0)" } ?? "") + "}"
        let key = tag + "\u{0}" + single
        if let known = cache.withLock({ $0[key] }) { return known }
        let edges = render(single, tag: tag)
        cache.withLock { $0[key] = .some(edges) }
        return edges
    }

    private static func render(_ single: String, tag: String) -> Edges? {
        guard let formatter = try? MessageFormatter(pattern: single, locale: tag) else { return nil }
        var first: String?
        var last: String?
        for sample in samples {
            guard let text = try? formatter.format(["d": .date(sample)]) else { return nil }
            if first == nil, let scalar = text.unicodeScalars.first, isCJK(scalar) { first = text }
            if last == nil, let scalar = text.unicodeScalars.last, isCJK(scalar) { last = text }
        }
        return Edges(first: first, last: last)
    }
}
