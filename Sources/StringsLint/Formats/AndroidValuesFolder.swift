import Foundation

/// Whether a folder is an Android `res/` folder with strings to lint: its `values/` holds `strings.xml`, or another
/// XML file with a `<string` or `<plurals` element (Android merges every file of a `values` folder; element-x-android
/// keeps its English in `values/localazy.xml`). `donottranslate.xml` does not count (Android lint's file of
/// untranslatable strings). Reads the file system only.
enum AndroidValuesFolder {
    static func holdsStrings(_ res: String) -> Bool {
        let values = (res as NSString).appendingPathComponent("values")
        if FileManager.default.fileExists(atPath: (values as NSString).appendingPathComponent("strings.xml")) { return true }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: values) else { return false }
        return names.sorted().contains { name in
            guard name.hasSuffix(".xml"), name != "donottranslate.xml",
                  let data = FileManager.default.contents(atPath: (values as NSString).appendingPathComponent(name)) else { return false }
            return data.range(of: Data("<string ".utf8)) != nil || data.range(of: Data("<plurals ".utf8)) != nil
        }
    }

    /// Whether `relative` (a path inside a `res/` folder) is a file the linter reads: `values*/NAME.xml`.
    static func isValuesFile(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/")
        return parts.count == 2 && parts[0].hasPrefix("values") && parts[1].hasSuffix(".xml")
    }
}
