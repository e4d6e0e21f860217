import Foundation

/// Plain-text reading of a Gradle build script or of build-logic source (Groovy, Kotlin DSL, Kotlin, Java): the
/// `lintConfig` settings, `apply from:` script plugins and `subprojects { }` / `allprojects { }` blocks written in
/// it. Gradle is never evaluated: only literal paths are understood, anything computed is `unreadable`.
struct GradleScript {
    /// Which project a path in a script is resolved against, as Gradle does: `file("x")`, `project.file("x")`,
    /// `layout.projectDirectory.file("x")` and `${projectDir}` against the project applying the script or
    /// plugin (the module); `rootProject.file("x")`, `isolated.rootProject.projectDirectory.file("x")`,
    /// `File(rootDir, "x")`, `rootDir.resolve("x")` and `${rootDir}` against the root project.
    enum Base: Equatable { case module, root }

    /// A path written in a script: literal (relative to `base`, or absolute), or computed (a variable, a call,
    /// an interpolation other than the project folders), which lookd does not read.
    enum Path: Equatable {
        case literal(String, Base)
        case unreadable
    }

    /// The script's code with `//` and `/* */` comments blanked (string literals kept; line breaks kept).
    let code: [UInt8]
    /// For each byte of `code`, whether it is inside a string literal (names there are text, not code).
    private let quoted: [Bool]

    init(_ text: String) {
        (code, quoted) = Self.withoutComments(Array(text.utf8))
    }

    /// The last `lintConfig` setting of the script (`lintConfig = …`, Groovy `lintConfig …`, `lintConfig(…)`,
    /// `lintOptions.lintConfig = …`), Gradle running the script top to bottom; nil when it sets none. A read of
    /// the property (`if (lintConfig == null)`) is not a setting.
    var lintConfig: Path? {
        var found: Path?
        for name in occurrences(of: "lintConfig") {
            let index = name + 10
            guard name == 0 || !Self.isIdentifier(code[name - 1]) || code[name - 1] == UInt8(ascii: ".") else { continue }
            guard index < code.count, !Self.isIdentifier(code[index]) else { continue }
            var start = skipping(" \t", from: index)
            guard start < code.count else { continue }
            switch code[start] {
            case UInt8(ascii: "="):
                guard start + 1 < code.count, code[start + 1] != UInt8(ascii: "=") else { continue }
                start += 1
            case UInt8(ascii: "("), UInt8(ascii: "\""), UInt8(ascii: "'"):
                break
            case let byte where Self.isIdentifier(byte) && start > index:
                break
            default:
                continue
            }
            found = Self.path(of: expression(from: start))
        }
        return found
    }

    /// The script plugins the script applies (`apply from: "…"`, `apply(from = "…")`, `apply from: file('…')`),
    /// in order; computed ones are `unreadable`.
    var appliedScripts: [Path] {
        occurrences(of: "apply").compactMap { apply in
            let from = skipping(" \t(", from: apply + 5)
            guard from + 4 <= code.count, code[from..<from + 4].elementsEqual("from".utf8) else { return nil }
            return Self.path(of: expression(from: skipping(" \t:=", from: from + 4)), plainStringBase: .module)
        }
    }

    /// The bodies of the script's `subprojects { … }` and `allprojects { … }` blocks, in order.
    var subprojectBlocks: [GradleScript] { blocks(named: ["subprojects", "allprojects"]) }

    /// The issue severities the script's `lint { }`, `lintOptions { }` and `lint.apply { }` blocks set through
    /// Android lint's Gradle DSL, in the order written: `disable` (and the old `ignore`) as `ignore`, `warning`,
    /// `informational`, `error`, `fatal` — `disable += "MissingTranslation"`, `disable += setOf("A", "B")`,
    /// `disable.add("A")`, `disable.addAll(listOf(…))`, Groovy `disable 'A', 'B'` and `disable += ['A']`,
    /// `warning("A")`. Only literal issue ids are read.
    var lintSeverities: [(id: String, severity: String)] {
        let words = [("disable", "ignore"), ("ignore", "ignore"), ("warning", "warning"), ("informational", "informational"), ("error", "error"), ("fatal", "fatal")]
        return blocks(named: ["lint", "lintOptions", "lint.apply", "lintOptions.apply"]).flatMap { block in
            words.flatMap { word, severity in
                block.occurrences(of: word).compactMap { at -> (Int, [String], String)? in
                    let after = at + word.utf8.count
                    guard at == 0 || !Self.isIdentifier(block.code[at - 1]), after < block.code.count,
                          !Self.isWordByte(block.code[after]) else { return nil }
                    let ids = Self.stringLiterals(in: block.expression(from: after)).flatMap { $0.split(separator: ",") }
                        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.contains("$") }
                    return ids.isEmpty ? nil : (at, ids, severity)
                }
            }.sorted { $0.0 < $1.0 }.flatMap { _, ids, severity in ids.map { (id: $0, severity: severity) } }
        }
    }

    /// The bodies of the script's blocks named one of `names` (`subprojects { … }`), in order.
    private func blocks(named names: [String]) -> [GradleScript] {
        let starts = names.flatMap { name in occurrences(of: name).map { ($0, $0 + name.utf8.count) } }
        return starts.sorted { $0.0 < $1.0 }.compactMap { at, end in
            let open = skipping(" \t\r\n", from: end)
            guard at == 0 || !Self.isIdentifier(code[at - 1]), open < code.count, code[open] == UInt8(ascii: "{"),
                  let close = closingBrace(from: open) else { return nil }
            return GradleScript(code: code[(open + 1)..<close], quoted: quoted[(open + 1)..<close])
        }
    }

    /// The folders a `settings.gradle(.kts)` includes as builds (`includeBuild("build-logic")`,
    /// `includeBuild 'plugins'`), literal paths only, in order.
    var includedBuilds: [String] {
        occurrences(of: "includeBuild").compactMap { at in
            guard case .literal(let path, _)? = Self.stringLiteral(expression(from: skipping(" (", from: at + 12))) else { return nil }
            return path
        }
    }

    private init(code: ArraySlice<UInt8>, quoted: ArraySlice<Bool>) {
        self.code = Array(code)
        self.quoted = Array(quoted)
    }

    // MARK: - Reading code

    /// Where `word` starts in the code outside string literals, in order.
    private func occurrences(of word: String) -> [Int] {
        let needle = Array(word.utf8)
        var result: [Int] = []
        var index = 0
        while index + needle.count <= code.count {
            if code[index] == needle[0], !quoted[index], code[index..<(index + needle.count)].elementsEqual(needle) { result.append(index) }
            index += 1
        }
        return result
    }

    /// The first index from `start` whose byte is not one of `bytes` (ASCII), or the end of the code.
    private func skipping(_ bytes: String, from start: Int) -> Int {
        var index = start
        while index < code.count, bytes.utf8.contains(code[index]) { index += 1 }
        return index
    }

    /// The expression starting at `start`, whitespace outside string literals removed: up to a `;`, a `}` or an
    /// unmatched `)`, or a line break outside parentheses unless the next line continues it with `.`.
    private func expression(from start: Int) -> [UInt8] {
        var result: [UInt8] = []
        var depth = 0
        var index = start
        var quote: UInt8?
        while index < code.count, result.count < 400 {
            let byte = code[index]
            if let open = quote {
                result.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < code.count { result.append(code[index + 1]); index += 2; continue }
                if byte == open { quote = nil }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                quote = byte
                result.append(byte)
            case UInt8(ascii: "("):
                depth += 1
                result.append(byte)
            case UInt8(ascii: ")"):
                if depth == 0 { return result }
                depth -= 1
                result.append(byte)
            case UInt8(ascii: ";"), UInt8(ascii: "}"):
                return result
            case UInt8(ascii: "\n"):
                let next = skipping(" \t\r\n", from: index + 1)
                if depth == 0, !(next < code.count && code[next] == UInt8(ascii: ".")), result.last != UInt8(ascii: ".") { return result }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                result.append(byte)
            }
            index += 1
        }
        return result
    }

    private func closingBrace(from open: Int) -> Int? {
        var depth = 0
        var quote: UInt8?
        var index = open
        while index < code.count {
            let byte = code[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }

    // MARK: - Classifying an expression

    /// Receivers a `file(…)` call may have and still name a project folder: `project.`, `target.`,
    /// `layout.projectDirectory.`, `isolated.rootProject.projectDirectory.`, …
    private static let receiverWords: Set<String> = ["project", "target", "layout", "projectDirectory", "isolated", "rootProject", "rootDir", "projectDir", "get()", "this", "it"]
    private static let rootFolders: Set<String> = ["rootDir", "project.rootDir", "rootProject.rootDir", "rootProject.projectDir", "project.rootProject.projectDir", "project.rootProject.rootDir", "target.rootDir", "target.rootProject.projectDir"]
    private static let moduleFolders: Set<String> = ["projectDir", "project.projectDir", "target.projectDir"]

    /// The path an expression names (whitespace already removed): `file("…")` with a receiver naming a project
    /// folder (optionally `.asFile`), `File(rootDir, "…")`, `new File(projectDir, '…')`, `File("${rootDir}/…")`,
    /// `rootDir.resolve("…")`, or,
    /// when `plainStringBase` is given (`apply from: "…"`), a string literal.
    static func path(of expression: [UInt8], plainStringBase: Base? = nil) -> Path {
        var text = String(decoding: expression, as: UTF8.self)
        if text.hasPrefix("("), text.hasSuffix(")") { text = String(text.dropFirst().dropLast()) }
        for suffix in [".get().asFile", ".asFile"] where text.hasSuffix(suffix) { text = String(text.dropLast(suffix.count)) }
        if let base = plainStringBase, text.first == "\"" || text.first == "'" {
            return stringLiteral(Array(text.utf8), base: base) ?? .unreadable
        }
        if text.hasPrefix("newFile(") { text = String(text.dropFirst(3)) }
        if text.hasPrefix("File("), text.hasSuffix(")"), !text.contains(",") {
            // java.io.File resolves a relative path against the JVM's working directory, no project's folder: only a
            // path starting with a project folder (`File("${project.rootDir}/…")`) or `/` is known.
            let literal = Array(text.dropFirst(5).dropLast().utf8)
            guard literal.count > 2, literal[1] == UInt8(ascii: "$") || literal[1] == UInt8(ascii: "/") else { return .unreadable }
            return stringLiteral(literal) ?? .unreadable
        }
        if text.hasPrefix("File("), text.hasSuffix(")"), let comma = text.firstIndex(of: ",") {
            let folder = String(text[text.index(text.startIndex, offsetBy: 5)..<comma])
            let argument = Array(text[text.index(after: comma)..<text.index(before: text.endIndex)].utf8)
            guard let base: Base = rootFolders.contains(folder) ? .root : moduleFolders.contains(folder) ? .module : nil else { return .unreadable }
            return stringLiteral(argument, base: base) ?? .unreadable
        }
        if let call = text.range(of: ".resolve("), text.hasSuffix(")") {
            let folder = String(text[..<call.lowerBound])
            guard let base: Base = rootFolders.contains(folder) ? .root : moduleFolders.contains(folder) ? .module : nil else { return .unreadable }
            return stringLiteral(Array(text[call.upperBound..<text.index(before: text.endIndex)].utf8), base: base) ?? .unreadable
        }
        guard let call = text.range(of: "file("), text.hasSuffix(")") else { return .unreadable }
        let receiver = text[..<call.lowerBound]
        let words = receiver.split(separator: ".").map(String.init)
        guard receiver.isEmpty || (receiver.hasSuffix(".") && words.allSatisfy(receiverWords.contains)) else { return .unreadable }
        let base: Base = words.contains("rootProject") || words.contains("rootDir") ? .root : .module
        return stringLiteral(Array(text[call.upperBound..<text.index(before: text.endIndex)].utf8), base: base) ?? .unreadable
    }

    /// A string literal alone (`"x"`, `'x'`) as a path: a leading project-folder interpolation (`${rootDir}`,
    /// `$rootDir`, `${project.rootDir}`, `${rootProject.projectDir}`, `${projectDir}`, …) sets the base and is
    /// removed; any other `$` makes it unreadable. nil when `literal` is not one string literal.
    static func stringLiteral(_ literal: [UInt8], base: Base = .module) -> Path? {
        guard literal.count >= 2, let quote = literal.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
              literal.last == quote, !literal.dropFirst().dropLast().contains(quote) else { return nil }
        var path = String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
        var base = base
        for (prefix, folder) in interpolatedFolders where path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            guard rest.isEmpty || rest.first == "/" else { continue }
            path = String(rest.drop { $0 == "/" })
            base = folder
            break
        }
        guard !path.isEmpty, !path.contains("$") else { return .unreadable }
        return .literal(path, base)
    }

    private static let interpolatedFolders: [(String, Base)] = [
        ("${project.rootProject.projectDir}", .root), ("${rootProject.projectDir}", .root), ("${rootProject.rootDir}", .root),
        ("${project.rootDir}", .root), ("${rootDir}", .root), ("$rootDir", .root),
        ("${project.projectDir}", .module), ("${projectDir}", .module), ("$projectDir", .module),
    ]

    // MARK: - Bytes

    /// The contents of the string literals (`"…"`, `'…'`) in `expression`.
    private static func stringLiterals(in expression: [UInt8]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < expression.count {
            let quote = expression[index]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
                  let end = expression[(index + 1)...].firstIndex(of: quote) else { index += 1; continue }
            result.append(String(decoding: expression[(index + 1)..<end], as: UTF8.self))
            index = end + 1
        }
        return result
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte != UInt8(ascii: ".") && isIdentifier(byte)
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }

    /// `text` with each `//…` and `/*…*/` comment replaced by spaces (line breaks kept), string literals untouched,
    /// and which bytes are inside a string literal (its quotes not).
    private static func withoutComments(_ text: [UInt8]) -> ([UInt8], [Bool]) {
        var result = text
        var quoted = [Bool](repeating: false, count: text.count)
        var index = 0
        var quote: UInt8?
        while index < text.count {
            let byte = text[index]
            if let open = quote {
                if byte == open || byte == UInt8(ascii: "\n") { quote = nil; index += 1; continue }
                quoted[index] = true
                if byte == UInt8(ascii: "\\"), index + 1 < text.count { quoted[index + 1] = true; index += 2; continue }
                index += 1
                continue
            }
            let next = index + 1 < text.count ? text[index + 1] : 0
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "/"), next == UInt8(ascii: "/") {
                while index < text.count, text[index] != UInt8(ascii: "\n") { result[index] = UInt8(ascii: " "); index += 1 }
                continue
            } else if byte == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
                var end = index + 2
                while end + 1 < text.count, !(text[end] == UInt8(ascii: "*") && text[end + 1] == UInt8(ascii: "/")) { end += 1 }
                end = min(text.count, end + 2)
                for blank in index..<end where result[blank] != UInt8(ascii: "\n") { result[blank] = UInt8(ascii: " ") }
                index = end
                continue
            }
            index += 1
        }
        return (result, quoted)
    }
}
