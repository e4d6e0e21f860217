import Foundation

/// A Gradle project's shared build logic, where convention plugins set what every module gets: `buildSrc/`, the
/// builds its `settings.gradle(.kts)` includes (`includeBuild("build-logic")`, in the order it names them), and
/// `build-logic/` and `build-plugin/` when not named. In each, the plugin code is the `src/main/` sources
/// (`.kt`, `.kts`, `.gradle`, `.groovy`, `.java`) of the build itself (always for `buildSrc`) and of its direct
/// subfolders whose build script makes plugins (`kotlin-dsl`, `groovy-gradle-plugin`, `java-gradle-plugin` or a
/// `gradlePlugin { }` block) — nowinandroid-style `build-logic/convention/`. Reads the file system only.
enum GradleBuildLogic {
    /// The plugin source files of the build logic of the root project at `root`, in the order above, each build's
    /// files in path order; at most `limit` files.
    static func sourceFiles(root: URL, limit: Int = 5_000) -> [URL] {
        var builds: [URL] = [root.appendingPathComponent("buildSrc")]
        for name in ["settings.gradle.kts", "settings.gradle"] {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).path) else { continue }
            builds += GradleScript(String(decoding: data, as: UTF8.self)).includedBuilds.map { root.appendingPathComponent($0).standardizedFileURL }
            break
        }
        builds += ["build-logic", "build-plugin"].map { root.appendingPathComponent($0) }
        var seen: Set<String> = []
        var files: [URL] = []
        for build in builds where seen.insert(build.standardizedFileURL.path).inserted {
            var parts: [URL] = []
            if build.lastPathComponent == "buildSrc" || makesPlugins(build) { parts.append(build) }
            let children = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
            parts += children.sorted().map { build.appendingPathComponent($0) }.filter(makesPlugins)
            for part in parts {
                files += sources(under: part.appendingPathComponent("src/main"), limit: limit - files.count)
                if files.count >= limit { return files }
            }
        }
        return files
    }

    /// Whether `folder`'s build script applies a plugin-making plugin.
    private static func makesPlugins(_ folder: URL) -> Bool {
        for name in ["build.gradle.kts", "build.gradle"] {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { continue }
            let code = String(decoding: GradleScript(String(decoding: data, as: UTF8.self)).code, as: UTF8.self)
            return ["kotlin-dsl", "groovy-gradle-plugin", "java-gradle-plugin", "gradlePlugin"].contains { code.contains($0) }
        }
        return false
    }

    private static func sources(under folder: URL, limit: Int) -> [URL] {
        guard limit > 0, let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var files: [URL] = []
        for case let file as URL in walker where ["kt", "kts", "gradle", "groovy", "java"].contains(file.pathExtension) {
            files.append(file)
            if files.count >= limit { break }
        }
        return files.sorted { $0.path < $1.path }
    }
}
