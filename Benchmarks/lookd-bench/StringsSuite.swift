import Foundation
import ICUAnchor
import Strings

/// `lookd-bench strings`: the Strings library beside raw ICU C++ (ICUAnchor) doing the same work in the same
/// run. Targets (issue 3): format of a cached plural message ≤ 1.3× raw `MessageFormat::format`; negotiating a
/// tag ≤ 1.3× raw `LocaleMatcher` (or faster with the memo).
///
/// The machine is shared, so every measurement runs in each of `rounds` interleaved rounds (library, anchor,
/// library, anchor, …) and the fastest round counts: load spikes hit one round, not one side.
let stringsSuite = BenchmarkSuite(name: "strings") {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let directory = ProcessInfo.processInfo.environment["LOOKD_CATALOGS"].map { URL(fileURLWithPath: $0) }
        ?? root.appendingPathComponent("Resources/Localizations")
    let localizer: Localizer
    do {
        localizer = try Localizer(directory: directory)
    } catch {
        print("cannot load catalogs from \(directory.path): \(error)")
        return
    }
    let iterations = 100_000
    let rounds = 9

    // 1. Formatting a cached plural message.
    let key = "thread.unread"
    let locale = LocaleTag("ru")!
    let arguments: [String: Argument] = ["count": 5]
    guard let first = try? localizer.format(key: key, locale: locale, arguments: arguments) else {
        print("cannot format \(key) for \(locale)")
        return
    }
    let served = first.servedBy
    let pattern = localizer.catalogs(for: locale).entries[key]!.pattern
    let conventions = served.identifier.split(separator: "-").first == "ru" ? locale.identifier : served.identifier
    let formatter = try! MessageFormatter(pattern: pattern, locale: conventions)
    print("format \(key) in \(locale) (served by \(served); \"\(first.text)\"), best of \(rounds) rounds × \(iterations) calls")
    let format = interleaved(rounds: rounds, [
        { timeNanoseconds(iterations) { blackHole(try! localizer.format(key: key, locale: locale, arguments: arguments).text.utf8.count) } },
        { timeNanoseconds(iterations) { blackHole(try! formatter.format(arguments).utf8.count) } },
        { icu_anchor_shim_format_ns(pattern, conventions, "count", 5, Int64(iterations)) },
        { icu_anchor_message_format_ns(pattern, conventions, "count", 5, 0, Int64(iterations)) },
        { icu_anchor_message_format_ns(pattern, conventions, "count", 5, 1, Int64(iterations)) },
        { icu_anchor_message_format_ns(pattern, conventions, "count", 5, 2, Int64(iterations)) },
        { icu_anchor_message_format_ns(pattern, conventions, "count", 5, 3, Int64(iterations / 10)) },
    ])
    row("Localizer.format (cached; Swift String out)", format[0])
    row("MessageFormatter.format (no catalog lookup)", format[1])
    row("CICU lookd_message_format from C++ (UTF-8 out)", format[2])
    row("raw MessageFormat::format (UnicodeString out)", format[3])
    row("raw format + toUTF8String", format[4])
    row("raw std::mutex + format", format[5])
    row("raw clone + format (thread-safety alternative)", format[6])
    ratio("format: library / raw MessageFormat::format", format[0], format[3], target: 1.3)
    ratio("format: library / raw format + UTF-8", format[0], format[4], target: nil)
    ratio("thread safety: clone / lock", format[6], format[5], target: nil)

    // 2. Negotiating a tag.
    let tag = "es-MX"
    let supported = LocaleTag.all.map { strdup($0.identifier)! }
    defer { supported.forEach { free($0) } }
    let pointers = supported.map { UnsafePointer($0) as UnsafePointer<CChar>? }
    var rawIndex: Int32 = -1
    let noMemo = LocaleNegotiator(memoSize: 0)
    let shared = LocaleNegotiator.shared
    print("\nnegotiate \"\(tag)\" → \(shared.negotiate(tag: tag)) among 50, best of \(rounds) rounds × \(iterations) calls")
    let negotiate = interleaved(rounds: rounds, [
        { timeNanoseconds(iterations) { blackHole(shared.negotiate(tag: tag).index) } },
        { timeNanoseconds(iterations) { blackHole(noMemo.negotiate(tag: tag).index) } },
        {
            pointers.withUnsafeBufferPointer {
                icu_anchor_matcher_ns($0.baseAddress, 50, Int32(LocaleTag.english.index), tag, 1, Int64(iterations), &rawIndex)
            }
        },
        {
            pointers.withUnsafeBufferPointer {
                icu_anchor_matcher_ns($0.baseAddress, 50, Int32(LocaleTag.english.index), tag, 0, Int64(iterations), &rawIndex)
            }
        },
    ])
    precondition(LocaleTag.all[Int(rawIndex)] == shared.negotiate(tag: tag), "raw ICU and the library disagree")
    row("LocaleNegotiator.negotiate (memo hit)", negotiate[0])
    row("LocaleNegotiator.negotiate (memo off)", negotiate[1])
    row("raw forLanguageTag + LocaleMatcher", negotiate[2])
    row("raw LocaleMatcher (pre-parsed Locale)", negotiate[3])
    ratio("negotiate: library (memo) / raw with parse", negotiate[0], negotiate[2], target: 1.3)
    ratio("negotiate: library (no memo) / raw with parse", negotiate[1], negotiate[2], target: 1.3)
}

private nonisolated(unsafe) var blackHoleSink = 0
@inline(never) private func blackHole(_ value: Int) { blackHoleSink &+= value }

private func timeNanoseconds(_ iterations: Int, _ body: () -> Void) -> Double {
    for _ in 0..<(iterations / 10) { body() } // warm-up, like the C++ anchor
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { body() }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return seconds * 1e9 / Double(iterations)
}

/// Runs every measurement once per round, in turn, and returns each one's fastest round.
private func interleaved(rounds: Int, _ measurements: [() -> Double]) -> [Double] {
    var best = Array(repeating: Double.infinity, count: measurements.count)
    for _ in 0..<rounds {
        for (index, measure) in measurements.enumerated() {
            best[index] = min(best[index], measure())
        }
    }
    return best
}

private func row(_ label: String, _ nanoseconds: Double) {
    print("  " + label.padding(toLength: 50, withPad: " ", startingAt: 0) + String(format: "%9.1f ns/op", nanoseconds))
}

private func ratio(_ label: String, _ value: Double, _ anchor: Double, target: Double?) {
    let figure = value / anchor
    var line = "  " + label.padding(toLength: 50, withPad: " ", startingAt: 0) + String(format: "%9.2f×", figure)
    if let target { line += figure <= target ? "  (target ≤ \(target)×: met)" : "  (target ≤ \(target)×: NOT met)" }
    print(line)
}
