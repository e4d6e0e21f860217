import Foundation

/// The `lint.xml` a module's Gradle build points Android lint at: `lintConfig file("…")` in `lintOptions { }` or
/// `lint { }` (Groovy), `lintConfig = file("…")` (Kotlin DSL), in the module's `build.gradle` or
/// `build.gradle.kts`. Android's Gradle plugin documents it as the fallback configuration (default severities)
/// for issues the project's own `lint.xml` files do not set.
enum GradleLintConfig {
    /// The `lint.xml` path the build file nearest above `res` (`app/src/main/res` → `app/src/main`, `app/src`,
    /// `app`, the project root) names, resolved as Gradle does: `file("x")` and `project.file("x")` against the
    /// module's folder, `rootProject.file("x")` and a path starting with `${rootDir}`, `$rootDir`,
    /// `${project.rootDir}` or `${rootProject.projectDir}` against the root project (the nearest folder from the
    /// module up holding `settings.gradle(.kts)`, else the module). nil when no build file is found or it sets no
    /// `lintConfig` with a literal path (a convention plugin's setting is not seen). Reads the file system only.
    static func lintXMLPath(projectAbove res: String) -> String? {
        var folder = URL(fileURLWithPath: res).standardizedFileURL
        for _ in 0..<4 {
            folder.deleteLastPathComponent()
            for name in ["build.gradle.kts", "build.gradle"] {
                let file = folder.appendingPathComponent(name)
                guard let data = FileManager.default.contents(atPath: file.path) else { continue }
                guard let setting = setting(in: String(decoding: data, as: UTF8.self)) else { return nil }
                let base = setting.fromRoot ? rootProject(from: folder) : folder
                return setting.path.hasPrefix("/") ? setting.path : base.appendingPathComponent(setting.path).standardizedFileURL.path
            }
        }
        return nil
    }

    /// The last `lintConfig` setting of a build script with a literal `file("…")` path: the path (a leading
    /// root-directory interpolation removed) and whether it is relative to the root project.
    static func setting(in script: String) -> (path: String, fromRoot: Bool)? {
        var found: (path: String, fromRoot: Bool)?
        for line in script.split(whereSeparator: \.isNewline) {
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            guard let name = code.range(of: "lintConfig") else { continue }
            let rest = code[name.upperBound...]
            // `lintConfig file(…)`, `lintConfig = file(…)`, `lintConfig(file(…))`; not `lintConfigFoo`.
            guard let first = rest.first, first == " " || first == "=" || first == "(" || first == "\t",
                  let call = rest.range(of: "file(", options: .backwards) else { continue }
            var argument = rest[call.upperBound...].drop { $0 == " " }
            guard let quote = argument.first, quote == "\"" || quote == "'" else { continue }
            argument = argument.dropFirst()
            guard let end = argument.firstIndex(of: quote) else { continue }
            var path = String(argument[..<end])
            var fromRoot = rest[..<call.lowerBound].contains("rootProject")
            for prefix in ["${project.rootDir}", "${rootDir}", "$rootDir", "${rootProject.projectDir}", "${project.rootProject.projectDir}"]
            where path.hasPrefix(prefix) {
                path = String(path.dropFirst(prefix.count).drop { $0 == "/" })
                fromRoot = true
                break
            }
            guard !path.isEmpty, !path.contains("$") else { continue }
            found = (path, fromRoot)
        }
        return found
    }

    /// The root project's folder: the nearest from `module` up holding `settings.gradle(.kts)`, else `module`.
    private static func rootProject(from module: URL) -> URL {
        var folder = module
        while folder.path != "/" {
            for name in ["settings.gradle.kts", "settings.gradle"]
            where FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) { return folder }
            folder.deleteLastPathComponent()
        }
        return module
    }
}
