import Foundation
import Strings

/// The package's real catalogs, found from this file's path (Tests/StringsTests/Support.swift).
let catalogDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Resources/Localizations")

/// One localizer over the real catalogs for the whole test run (loading is the slow part).
let realLocalizer: Localizer = {
    do {
        return try Localizer(directory: catalogDirectory)
    } catch {
        fatalError("cannot load \(catalogDirectory.path): \(error)")
    }
}()

func tag(_ identifier: String) -> LocaleTag {
    guard let locale = LocaleTag(identifier) else { fatalError("\(identifier) is not one of the 50") }
    return locale
}

/// 2025-11-12 12:00 UTC: noon, so day-level skeletons give the 12th in any zone within ±11 h.
let november12 = Date(timeIntervalSince1970: 1_762_948_800)

/// Formats an inline pattern (no catalog) for a locale.
func formatPattern(_ pattern: String, _ locale: String, _ arguments: [String: Argument],
                   options: FormatOptions = .default) throws -> String {
    try MessageFormatter(pattern: pattern, locale: locale).format(arguments, options: options)
}
