import FuzzInput
import Foundation
import Strings

/// Locales with different plural rules, scripts and digits.
private let locales = ["en", "ar", "ru", "pl", "ja", "fa", "he", "cy", "fr", "zh-Hant", "hi", "x-junk"]

/// Input layout: a locale selector byte, the pattern up to a NUL, then per argument a kind byte and its value
/// (8 bytes for numbers and dates, a NUL-terminated string for strings). Arguments are named after the
/// pattern's own argument names, so well-typed and ill-typed values both reach ICU. Throws are refusals.
@_cdecl("LLVMFuzzerTestOneInput")
public func messageFormatFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let locale = input.pick(locales)
    let pattern = input.string()
    guard let formatter = try? MessageFormatter(pattern: pattern, locale: locale) else { return 0 }
    var arguments: [String: Argument] = [:]
    for name in formatter.argumentNames where !input.isAtEnd {
        switch input.byte() % 4 {
        case 0: arguments[name] = .string(input.string())
        case 1: arguments[name] = .integer(input.int64())
        case 2: arguments[name] = .double(Double(bitPattern: UInt64(bitPattern: input.int64())))
        default: arguments[name] = .date(Date(timeIntervalSince1970: Double(input.int64() % 100_000_000_000)))
        }
    }
    _ = try? formatter.format(arguments, options: FormatOptions(isolateStrings: input.byte() & 1 == 0))
    return 0
}

/// The executable's entry point (see `FuzzerEntry`): libFuzzer's driver over this target's input function.
@_cdecl("FuzzMessageFormat_main")
public func fuzzMessageFormatMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzerEntry.run(argc, argv, messageFormatFuzzerTestOneInput)
}
