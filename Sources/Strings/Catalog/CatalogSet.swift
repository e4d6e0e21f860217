import Foundation
import StableJSON

/// The catalogs of one directory (`Resources/Localizations`): the English source `en.json` and the locale
/// files named by their BCP 47 tag (`pt-BR.json`, `zh-Hant.json`, …). Immutable once loaded.
public struct CatalogSet: Sendable {
    /// The directory the catalogs were read from.
    public let directory: URL
    /// The English source: key → message, description and maximum length. Its keys are the key inventory.
    public let source: [String: SourceMessage]
    /// Every loaded catalog's patterns by locale (English included, from the source's messages). Never the
    /// pseudo-locales: see `pseudoPatterns`.
    public let patterns: [LocaleTag: [String: String]]
    /// The pseudo-locales' patterns (en-XA, ar-XB), generated from the English source when the set is made
    /// (`PseudoLocalization`); never read from or written to a file.
    public let pseudoPatterns: [LocaleTag: [String: String]]
    /// `.json` files in the directory whose name is not one of the 50 tags (reported, not loaded; so are files
    /// named for a pseudo-locale, which is always generated).
    public let ignoredFiles: [String]

    /// The source keys, sorted.
    public var keys: [String] { source.keys.sorted() }

    /// The locales that have a catalog file, in `LocaleTag.all` order.
    public var locales: [LocaleTag] { patterns.keys.sorted() }

    public init(directory: URL, source: [String: SourceMessage], patterns: [LocaleTag: [String: String]],
                ignoredFiles: [String] = []) {
        self.directory = directory
        self.source = source
        var patterns = patterns
        patterns[.english] = source.mapValues(\.message)
        self.patterns = patterns
        self.ignoredFiles = ignoredFiles
        pseudoPatterns = Dictionary(uniqueKeysWithValues: LocaleTag.pseudoLocales.map { locale in
            (locale, source.mapValues { PseudoLocalization.pattern($0.message, for: locale) })
        })
    }

    /// The pattern `locale`'s own catalog (or, for a pseudo-locale, its generated set) has for `key`; nil when
    /// it has none. Does not follow the fallback chain.
    public func pattern(key: String, locale: LocaleTag) -> String? {
        locale.isPseudo ? pseudoPatterns[locale]?[key] : patterns[locale]?[key]
    }

    /// Loads `en.json` and every `<tag>.json` for the 50 tags from `directory`.
    /// Throws `CatalogError` naming the file when the directory or source is missing or a file is malformed;
    /// a locale file may lack keys (they fall back along the chain) and may not carry descriptions.
    public static func load(directory: URL) throws -> CatalogSet {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CatalogError.directoryNotFound(path: directory.path)
        }
        let sourceURL = directory.appendingPathComponent("en.json")
        guard FileManager.default.fileExists(atPath: sourceURL.path) else {
            throw CatalogError.missingSource(directory: directory.path)
        }
        let source = try readSource(sourceURL)
        var patterns: [LocaleTag: [String: String]] = [:]
        var ignored: [String] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names.sorted() where name.hasSuffix(".json") && name != "en.json" {
            let tagText = String(name.dropLast(".json".count))
            guard let locale = LocaleTag(tagText), locale.identifier == tagText else {
                ignored.append(name)
                continue
            }
            patterns[locale] = try readLocale(directory.appendingPathComponent(name))
        }
        return CatalogSet(directory: directory, source: source, patterns: patterns, ignoredFiles: ignored)
    }

    /// The top-level members of a catalog file, in file order (a key named twice is kept twice; the later wins
    /// where they are collected into a dictionary).
    private static func readJSONObject(_ url: URL) throws -> [JSONDocument.Member] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CatalogError.unreadable(path: url.path)
        }
        let document: JSONDocument
        do {
            document = try JSONReader.readDocument(data, options: .init(limits: .init(maxStringBytes: .max, maxValues: .max), duplicateKeys: .keep))
        } catch {
            throw CatalogError.invalidContent(path: url.path, detail: "not valid JSON (\(error))")
        }
        guard let members = document.members else {
            throw CatalogError.invalidContent(path: url.path, detail: "the top level must be a JSON object")
        }
        return members
    }

    static func readSource(_ url: URL) throws -> [String: SourceMessage] {
        var result: [String: SourceMessage] = [:]
        for member in try readJSONObject(url) {
            let entry = member.value
            guard let message = entry["message"]?.stringValue else {
                throw CatalogError.invalidContent(path: url.path, detail: "key '\(member.key)' needs an object with a string \"message\"")
            }
            var maxLength: Int?
            if let length = entry["maxLength"]?.numberValue?.double, length.isFinite {
                maxLength = Int(exactly: length.rounded(.towardZero))
            }
            result[member.key] = SourceMessage(message: message, description: entry["description"]?.stringValue, maxLength: maxLength)
        }
        return result
    }

    static func readLocale(_ url: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for member in try readJSONObject(url) {
            guard let pattern = member.value.stringValue else {
                throw CatalogError.invalidContent(path: url.path, detail: "key '\(member.key)' must map to a string pattern")
            }
            result[member.key] = pattern
        }
        return result
    }
}
