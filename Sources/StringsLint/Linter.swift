import Strings
import Foundation
import Locking

/// One catalog handed to the linter: its name (a path for the CLI, any label over HTTP; the locale is the last
/// path component without `.json`) and its bytes, or why it could not be read.
public struct CatalogInput: Sendable {
    public enum Contents: Sendable {
        case bytes([UInt8])
        case unreadable(reason: String)
    }

    public let name: String
    public let contents: Contents

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.contents = .bytes(bytes)
    }

    public init(name: String, unreadable reason: String) {
        self.name = name
        self.contents = .unreadable(reason: reason)
    }

    /// The file's tag: its last path component without `.json`.
    public var tag: String { Self.tag(name: name) }

    /// The tag of a catalog called `name`: its last path component without `.json`.
    static func tag(name: String) -> String {
        var base = Substring(name)
        if let slash = base.lastIndex(of: "/") { base = base[base.index(after: slash)...] }
        if base.hasSuffix(".json") { base = base.dropLast(5) }
        return String(base)
    }
}

/// Why linting could not start at all (the CLI's exit 2).
public enum LintError: Error, Sendable, CustomStringConvertible, Equatable {
    /// No input is the source catalog `<tag>.json`.
    case missingSource(tag: String)
    /// The source catalog cannot be read or is not a JSON object of messages.
    case unusableSource(name: String, problem: String)

    public var description: String {
        switch self {
        case .missingSource(let tag): "no source catalog \(tag).json among the catalogs"
        case .unusableSource(let name, let problem): "the source catalog \(name) is unusable: \(problem)"
        }
    }
}

/// The translation linter: catalogs in memory (name + bytes) in, findings out. The same function serves
/// `lookd lint` and the daemon's `POST /v1/lint`. Safe to share between threads.
///
/// Every catalog is checked against the source catalog (`configuration.sourceTag`, "en" by default). Plural
/// categories come from the ICU in use. Findings are sorted by file, line and column, with the severities the
/// configuration gives (checks set to `off` are dropped).
public struct Linter: Sendable {
    public let configuration: LintConfiguration
    /// Whether `lint` checks the catalogs on Dispatch's worker threads at once (true: `lookd lint`, one command
    /// that may use every core) or one after another on the calling thread (false: the daemon, whose worker lanes are
    /// its parallelism; Dispatch's threads run at the process's full CPU priority, so lint work spread over them
    /// would escape the lower priority of the shared lane, docs/http.md "Two worker lanes"). The findings are the
    /// same either way.
    public let spreadsOverCores: Bool

    public init(configuration: LintConfiguration = LintConfiguration(), spreadsOverCores: Bool = true) {
        self.configuration = configuration
        self.spreadsOverCores = spreadsOverCores
    }

    public func lint(_ catalogs: [CatalogInput]) throws(LintError) -> [LintFinding] {
        try lint(catalogs.map(LintedCatalog.input))
    }

    /// `lint(_:)` over catalogs given as files or as documents already in memory (a format's content).
    func lint(_ catalogs: [LintedCatalog]) throws(LintError) -> [LintFinding] {
        let sourceTag = configuration.sourceTag
        guard let sourceIndex = catalogs.firstIndex(where: { $0.tag == sourceTag }) else {
            throw LintError.missingSource(tag: sourceTag)
        }
        let sourceInput = catalogs[sourceIndex]
        let sourceDocument: CatalogDocument
        switch sourceInput.document() {
        case .success(let document): sourceDocument = document
        case .failure(let unreadable): throw LintError.unusableSource(name: sourceInput.name, problem: unreadable.reason)
        }
        if sourceDocument.entries.isEmpty, let fatal = sourceDocument.problems.first(where: { $0.key == nil }) {
            throw LintError.unusableSource(name: sourceInput.name, problem: "\(fatal.position.line):\(fatal.position.column): \(fatal.message)")
        }
        let source = SourceCatalog(document: sourceDocument, tag: sourceTag)

        let results = LockedValue<[[LintFinding]]>(Array(repeating: [], count: catalogs.count))
        let allowedLocales = Set(configuration.allowedLocales)
        @Sendable func check(_ index: Int) {
            let input = catalogs[index]
            var emitter = Emitter(configuration: configuration, file: input.name, locale: input.tag)
            if index == sourceIndex {
                emitter = CatalogChecks(emitter: emitter, source: source, isSource: true).run(sourceDocument)
            } else {
                checkName(name: input.name, tag: input.tag, allowed: allowedLocales, emitter: &emitter)
                switch input.document() {
                case .failure(let unreadable):
                    emitter.emit(.unreadableFile, at: .start, key: nil, "cannot read the file: \(unreadable.reason)")
                case .success(let document):
                    emitter = CatalogChecks(emitter: emitter, source: source, isSource: false).run(document)
                }
            }
            let findings = emitter.findings
            results.withLock { $0[index] = findings }
        }
        if spreadsOverCores {
            DispatchQueue.concurrentPerform(iterations: catalogs.count, execute: check)
        } else {
            for index in catalogs.indices { check(index) }
        }
        return results.withLock { $0 }.flatMap { $0 }.sortedForReport()
    }

    private func checkName(name: String, tag: String, allowed: Set<String>, emitter: inout Emitter) {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        guard base.hasSuffix(".json") else {
            emitter.emit(.fileName, at: .start, key: nil, "'\(base)' is not named <tag>.json")
            return
        }
        guard LanguageTag.isWellFormed(tag) else {
            let hint = LanguageTag.isWellFormed(tag.replacingOccurrences(of: "_", with: "-")) ? " (BCP 47 uses '-', e.g. \(tag.replacingOccurrences(of: "_", with: "-")).json)" : ""
            emitter.emit(.fileName, at: .start, key: nil, "'\(tag)' is not a well-formed BCP 47 language tag\(hint)")
            return
        }
        guard allowed.contains(tag) else {
            let match = allowed.first { $0.lowercased() == tag.lowercased() }
            emitter.emit(.fileName, at: .start, key: nil,
                         "'\(tag)' is not one of the configured locales" + (match.map { " (did you mean \($0).json?)" } ?? ""))
            return
        }
    }
}

/// Collects findings for one file, applying the configuration's severities.
struct Emitter {
    let configuration: LintConfiguration
    let file: String
    let locale: String
    private(set) var findings: [LintFinding] = []

    init(configuration: LintConfiguration, file: String, locale: String) {
        self.configuration = configuration
        self.file = file
        self.locale = locale
    }

    mutating func emit(_ check: LintCheck, at position: SourcePosition, key: String?, _ message: String, subject: String? = nil) {
        let severity = configuration.severity(of: check, locale: locale, key: key)
        guard severity != .off else { return }
        findings.append(LintFinding(check: check, severity: severity, file: file, position: position, locale: locale,
                                    key: key, message: message, subject: subject))
    }
}

/// The source catalog, parsed once and shared by every locale's checks.
struct SourceCatalog: Sendable {
    /// A class: looked up once per locale message, so copies must be a single retain.
    final class Message: Sendable {
        /// The key's position in `keys`.
        let index: Int
        let entry: CatalogDocument.Entry
        /// Nil when the source pattern itself does not parse (reported on the source file).
        let pattern: LintPattern?
        /// Each argument name once with its types.
        let signature: [(name: String, types: ArgumentTypeSet)]

        init(index: Int, entry: CatalogDocument.Entry, pattern: LintPattern?, signature: [(name: String, types: ArgumentTypeSet)]) {
            self.index = index
            self.entry = entry
            self.pattern = pattern
            self.signature = signature
        }
    }

    let tag: String
    let language: String
    /// The source's likely script (e.g. "Latn").
    let script: String?
    let messages: [String: Message]
    /// The messages in file order (`messages`' values; `Message.index` is the place in it).
    let ordered: [Message]
    /// Keys in file order.
    let keys: [String]

    /// The message of `key`, looked for first at `next` (the place after the previous key's: catalogs mostly list
    /// the source's keys in its order, so a string comparison, often of the same storage, finds it) and only then
    /// by hashing; `next` becomes the place after it. Hashing every key was 1.6 of the 243 million instructions of
    /// `lookd lint` on one `lint-xliff` bench file (callgrind, 3 Dec 2026).
    func message(_ key: String, next: inout Int) -> Message? {
        let found = next < ordered.count && ordered[next].entry.key == key ? ordered[next] : messages[key]
        if let found { next = found.index + 1 }
        return found
    }

    init(document: CatalogDocument, tag: String) {
        self.tag = tag
        self.language = LanguageTag.subtags(tag).language.lowercased()
        self.script = LanguageTag.maximize(tag).flatMap { LanguageTag.subtags($0).script }
        var messages: [String: Message] = [:]
        var ordered: [Message] = []
        messages.reserveCapacity(document.entries.count)
        ordered.reserveCapacity(document.entries.count)
        for (index, entry) in document.entries.enumerated() {
            let pattern = try? LintPattern.parse(entry.message).get()
            let message = Message(index: index, entry: entry, pattern: pattern, signature: pattern?.argumentSignature ?? [])
            messages[entry.key] = message
            ordered.append(message)
        }
        self.messages = messages
        self.ordered = ordered
        self.keys = document.entries.map(\.key)
    }
}
