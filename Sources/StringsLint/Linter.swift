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
        /// Each argument name once with its types: made when a check asks (most messages' single argument is compared
        /// without it, `CatalogChecks.checkArguments`; made for every source message, the signatures were 1.6 of the 238
        /// million instructions of `lookd lint` on one `lint-xliff` bench file, callgrind, 3 Dec 2026).
        var signature: [(name: String, types: ArgumentTypeSet)] { pattern?.argumentSignature ?? [] }

        init(index: Int, entry: CatalogDocument.Entry, pattern: LintPattern?) {
            self.index = index
            self.entry = entry
            self.pattern = pattern
        }
    }

    let tag: String
    let language: String
    /// The source's likely script (e.g. "Latn").
    let script: String?
    /// The messages in file order (`Message.index` is the place in it); no key is twice.
    let ordered: [Message]
    /// Keys in file order.
    let keys: [String]

    /// Where one catalog's look-ups of its keys (`message(_:cursor:)`) are. A value type, one per catalog.
    struct Cursor {
        /// The place after the previous key's.
        fileprivate var next = 0
        /// Each source key's place, made when a key was not found near `next`.
        fileprivate var places: [String: Int]?

        /// How far past `next` a key is looked for before `places` (a translation that leaves a few keys out).
        fileprivate static let reach = 8
    }

    /// The message of `key`, looked for first at the cursor's place and the few after it (catalogs mostly list the
    /// source's keys in its order, leaving some out: a string comparison, often of the same storage, finds it), and
    /// only then by hashing, in a dictionary of the source's keys made by the catalog's first such look-up; the cursor
    /// moves after it. Every key hashed, in a dictionary made for every source, took 3.7 of the 243 million
    /// instructions of `lookd lint` on one `lint-xliff` bench file (callgrind, 3 Dec 2026).
    func message(_ key: String, cursor: inout Cursor) -> Message? {
        var index: Int?
        for place in cursor.next..<min(cursor.next + Cursor.reach, ordered.count) where ordered[place].entry.key == key {
            index = place
            break
        }
        if index == nil {
            if cursor.places == nil {
                var places: [String: Int] = [:]
                places.reserveCapacity(keys.count)
                for (place, key) in keys.enumerated() { places[key] = place }
                cursor.places = places
            }
            index = cursor.places?[key]
        }
        guard let index else { return nil }
        cursor.next = index + 1
        return ordered[index]
    }

    init(document: CatalogDocument, tag: String) {
        self.tag = tag
        self.language = LanguageTag.subtags(tag).language.lowercased()
        self.script = LanguageTag.maximize(tag).flatMap { LanguageTag.subtags($0).script }
        var ordered: [Message] = []
        ordered.reserveCapacity(document.entries.count)
        for (index, entry) in document.entries.enumerated() {
            let pattern = try? LintPattern.parse(entry.message).get()
            ordered.append(Message(index: index, entry: entry, pattern: pattern))
        }
        self.ordered = ordered
        self.keys = document.entries.map(\.key)
    }
}
