import Foundation
import Strings

/// Finds the catalog directory for the Strings commands: `--catalogs DIR`, else `$LOOKD_CATALOGS`, else
/// `Resources/Localizations` under the current directory, else under the package root above the executable
/// (`.build/<config>/lookd` → the package). A directory counts only when it holds `en.json`.
enum CatalogLocator {
    static func directory(_ arguments: Arguments) throws -> URL {
        if let given = arguments.value("catalogs") {
            return try require(URL(fileURLWithPath: given), from: "--catalogs")
        }
        if let given = ProcessInfo.processInfo.environment["LOOKD_CATALOGS"], !given.isEmpty {
            return try require(URL(fileURLWithPath: given), from: "$LOOKD_CATALOGS")
        }
        let relative = "Resources/Localizations"
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(relative)
        if hasSource(current) { return current }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = folder.appendingPathComponent(relative)
            if hasSource(candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw UsageError("no catalog directory: pass --catalogs DIR or set LOOKD_CATALOGS (looked for \(relative)/en.json under the current directory and above the executable)")
    }

    static func localizer(_ arguments: Arguments) throws -> Localizer {
        let directory = try directory(arguments)
        do {
            return try Localizer(directory: directory)
        } catch let error as CatalogError {
            throw UsageError(error.description)
        }
    }

    private static func require(_ url: URL, from source: String) throws -> URL {
        guard hasSource(url) else { throw UsageError("\(source): \(url.path) has no en.json") }
        return url
    }

    private static func hasSource(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent("en.json").path)
    }
}
