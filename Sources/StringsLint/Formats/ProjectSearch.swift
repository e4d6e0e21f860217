import Foundation

/// Finds what `lookd lint` can check inside a project folder given above the catalogs (`lookd lint app/`, an
/// Android or Xcode project's root): every Android resource folder (a folder with strings in `values/`,
/// `AndroidValuesFolder`:
/// `app/src/main/res`, a flavour's `app/src/beta/res`, a library module's res, Compose Multiplatform's
/// `composeResources`; a flavour's res holding only translations, `FlavourResources`) and every String Catalog
/// (`*.xcstrings`).
public enum ProjectSearch {
    /// Folders never searched: build output and dependency caches (Gradle's `build/`, Xcode's `DerivedData`,
    /// CocoaPods' `Pods`, `node_modules`); hidden folders (`.git`, `.gradle`, `.build`, `.idea`) are skipped too.
    public static let skippedFolders: Set<String> = ["build", "node_modules", "DerivedData", "Pods"]

    /// The lintable inputs below `folder`, as paths that start with `folder`, sorted. A resource folder is not
    /// searched further; symbolic links to folders are not followed (no cycles). Unreadable folders are
    /// skipped. Empty when there is nothing to lint. Reads the file system only; safe from any thread.
    public static func lintableInputs(under folder: String) -> [String] {
        let manager = FileManager.default
        var found: [String] = []
        var pending = [folder]
        while let current = pending.popLast() {
            if AndroidValuesFolder.holdsStrings(current) || FlavourResources.mainResources(of: current) != nil {
                found.append(current)
                continue
            }
            guard let names = try? manager.contentsOfDirectory(atPath: current) else { continue }
            for name in names where !name.hasPrefix(".") {
                let path = join(current, name)
                guard let type = try? manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType else { continue }
                if type == .typeDirectory, !skippedFolders.contains(name) {
                    pending.append(path)
                } else if type == .typeRegular, name.hasSuffix(".xcstrings") {
                    found.append(path)
                }
            }
        }
        return found.sorted()
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
