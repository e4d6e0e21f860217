import Foundation
import StringsFormats

/// A product flavour's or build type's `res/` folder that holds translations only (`app/src/green/res/values-de/strings.xml`
/// and no `values/strings.xml`): Android merges it over the module's main source set (`app/src/main/res`), so its
/// strings are checked against the English of `main/res/values/strings.xml`, and a string its locale file lacks
/// comes from main's file of the same locale.
enum FlavourResources {
    /// The module's main `res/` folder for `res` (`…/src/FLAVOUR/res` → `…/src/main/res`) when `res` holds at least
    /// one `values-*/strings.xml` and no `values/strings.xml`, and main holds `values/strings.xml`; else nil.
    /// Reads the file system only.
    static func mainResources(of res: String) -> String? {
        let url = URL(fileURLWithPath: res).standardizedFileURL
        let flavour = url.deletingLastPathComponent()
        let sourceSets = flavour.deletingLastPathComponent()
        guard url.lastPathComponent == "res", flavour.lastPathComponent != "main", sourceSets.lastPathComponent == "src" else { return nil }
        let manager = FileManager.default
        let main = sourceSets.appendingPathComponent("main/res")
        guard !manager.fileExists(atPath: url.appendingPathComponent("values/strings.xml").path),
              manager.fileExists(atPath: main.appendingPathComponent("values/strings.xml").path),
              let names = try? manager.contentsOfDirectory(atPath: url.path),
              names.contains(where: { $0.hasPrefix("values-") && manager.fileExists(atPath: url.appendingPathComponent("\($0)/strings.xml").path) })
        else { return nil }
        return main.path
    }

    /// The keys main's `strings.xml` of each locale the flavour translates already has, by locale identifier:
    /// not missing in the flavour (Android takes them from main). `folders`: the flavour's `values-*` folders.
    static func providedByMain(_ main: String, folders: [String]) -> [String: Set<String>] {
        var files: [String: [UInt8]] = [:]
        for folder in folders {
            let path = (main as NSString).appendingPathComponent("\(folder)/strings.xml")
            if let data = FileManager.default.contents(atPath: path) { files["\(folder)/strings.xml"] = [UInt8](data) }
        }
        var provided: [String: Set<String>] = [:]
        for file in AndroidResourceDocument(files: FormatFiles(files)).files {
            let names = Set(file.resources.map(\.name))
            provided[file.locale.identifier, default: []].formUnion(file.resources.map { SelectCase.parse(androidName: $0.name, among: names)?.name ?? $0.name })
        }
        return provided
    }
}
