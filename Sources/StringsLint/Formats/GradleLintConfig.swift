import Foundation

/// The `lint.xml` a module's Gradle build points Android lint at (`lintConfig`, which Android's Gradle plugin
/// documents as the fallback configuration — default severities — for issues the project's own `lint.xml` files do
/// not set), found by reading the build's scripts as text (`GradleScript`); Gradle is never run.
enum GradleLintConfig {
    /// The `lint.xml` path the module nearest above `res` (`app/src/main/res` → `app/src/main`, `app/src`, `app`,
    /// the project root: the first holding `build.gradle(.kts)`) gets, from the first of these that sets
    /// `lintConfig`, as Gradle would apply it:
    /// 1. the module's own build script, else the script plugins it applies (`apply from:`; the last one);
    /// 2. the project's shared build logic (`GradleBuildLogic`: `buildSrc/`, included builds, `build-logic/`,
    ///    `build-plugin/`), its first file in that order;
    /// 3. the root build script's `subprojects { }` and `allprojects { }` blocks and the script plugins applied in
    ///    them (the last setting).
    /// Paths resolve as Gradle resolves them (`GradleScript.Base`): against the module, or against the root
    /// project (the nearest folder from the module up holding `settings.gradle(.kts)`, else the module). nil when
    /// no build script is found, nothing sets `lintConfig`, or the setting that applies is computed (a variable).
    /// Reads the file system only.
    static func lintXMLPath(projectAbove res: String) -> String? {
        guard let (module, script, root) = module(above: res),
              case .literal(let path, let base)? = setting(module: module, script: script, root: root) else { return nil }
        return resolve(path, base: base, module: module, root: root)
    }

    /// The issue severities Android lint's Gradle DSL gives the module above `res` (`lint { disable +=
    /// "MissingTranslation" }`, Groovy `lintOptions { disable 'MissingTranslation' }`, `warning`, `error`, …:
    /// `GradleScript.lintSeverities`), which override every `lint.xml`: issue id → `ignore`, `warning`,
    /// `informational`, `error` or `fatal`. Read from the scripts `lintXMLPath` reads, in the order Gradle runs
    /// them — the root script's `subprojects { }`/`allprojects { }` blocks and their script plugins, the shared
    /// build logic, the module's script plugins, its own script —, a later setting of an issue winning. Reads the
    /// file system only.
    static func severityOverrides(projectAbove res: String) -> [String: String] {
        guard let (module, script, root) = module(above: res) else { return [:] }
        var scripts: [GradleScript] = []
        if root != module, let rootScript = buildScript(in: root) {
            for block in rootScript.subprojectBlocks { scripts += [block] + applied(by: block, module: module, root: root, depth: 0) }
        }
        for file in GradleBuildLogic.sourceFiles(root: root) {
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            if text.contains("lint") { scripts.append(GradleScript(text)) }
        }
        scripts += applied(by: script, module: module, root: root, depth: 0) + [script]
        var result: [String: String] = [:]
        for (id, severity) in scripts.flatMap(\.lintSeverities) { result[id] = severity }
        return result
    }

    /// The module folder (the nearest of the four folders above `res` holding `build.gradle(.kts)`), its build
    /// script, and the root project's folder.
    private static func module(above res: String) -> (URL, GradleScript, URL)? {
        var folder = URL(fileURLWithPath: res).standardizedFileURL
        for _ in 0..<4 {
            folder.deleteLastPathComponent()
            if let script = buildScript(in: folder) { return (folder, script, rootProject(from: folder)) }
        }
        return nil
    }

    /// The `lintConfig` setting that applies to `module` (see `lintXMLPath`), nil when none is found.
    static func setting(module: URL, script: GradleScript, root: URL) -> GradleScript.Path? {
        if let own = script.lintConfig ?? lastSetting(appliedBy: script, module: module, root: root, depth: 0) { return own }
        for file in GradleBuildLogic.sourceFiles(root: root) {
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            guard text.contains("lintConfig"), let found = GradleScript(text).lintConfig else { continue }
            return found
        }
        guard root != module, let rootScript = buildScript(in: root) else { return nil }
        var found: GradleScript.Path?
        for block in rootScript.subprojectBlocks {
            if let setting = block.lintConfig { found = setting }
            if let applied = lastSetting(appliedBy: block, module: module, root: root, depth: 0) { found = applied }
        }
        return found
    }

    /// The last `lintConfig` setting of the script plugins `script` applies (`applied(by:)`).
    private static func lastSetting(appliedBy script: GradleScript, module: URL, root: URL, depth: Int) -> GradleScript.Path? {
        applied(by: script, module: module, root: root, depth: depth).compactMap(\.lintConfig).last
    }

    /// The script plugins `script` applies, each followed by those it applies (three levels deep), in the order
    /// Gradle runs them; a computed `apply from:` path or an unreadable file is skipped.
    private static func applied(by script: GradleScript, module: URL, root: URL, depth: Int) -> [GradleScript] {
        guard depth < 3 else { return [] }
        var result: [GradleScript] = []
        for case .literal(let path, let base) in script.appliedScripts {
            guard let data = FileManager.default.contents(atPath: resolve(path, base: base, module: module, root: root)) else { continue }
            let applied = GradleScript(String(decoding: data, as: UTF8.self))
            result += [applied] + Self.applied(by: applied, module: module, root: root, depth: depth + 1)
        }
        return result
    }

    private static func buildScript(in folder: URL) -> GradleScript? {
        for name in ["build.gradle.kts", "build.gradle"] {
            if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) {
                return GradleScript(String(decoding: data, as: UTF8.self))
            }
        }
        return nil
    }

    private static func resolve(_ path: String, base: GradleScript.Base, module: URL, root: URL) -> String {
        path.hasPrefix("/") ? path : (base == .root ? root : module).appendingPathComponent(path).standardizedFileURL.path
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
