import Foundation
import StableJSON
import Strings

/// lookd's catalogs as files hold them, order included: the English source (`en.json`, key → message,
/// description, maxLength) and each locale's `TAG.json` (key → pattern). The neutral form every format
/// converts from and to. Writing gives lookd's own file layout byte for byte (see `sourceFile` and
/// `localeFile`). A value type.
public struct CatalogContent: Sendable, Hashable {
    /// One source message, as in `en.json`.
    public struct SourceEntry: Sendable, Hashable {
        public var key: String
        public var message: String
        public var description: String?
        public var maxLength: Int?

        public init(key: String, message: String, description: String? = nil, maxLength: Int? = nil) {
            self.key = key
            self.message = message
            self.description = description
            self.maxLength = maxLength
        }
    }

    /// One translated pattern, as in `TAG.json`.
    public struct Translation: Sendable, Hashable {
        public var key: String
        public var pattern: String

        public init(key: String, pattern: String) {
            self.key = key
            self.pattern = pattern
        }
    }

    /// The source messages in file order.
    public var source: [SourceEntry]
    /// Each locale's patterns in file order (English is `source`, never here).
    public var translations: [CatalogLocale: [Translation]]

    public init(source: [SourceEntry], translations: [CatalogLocale: [Translation]] = [:]) {
        self.source = source
        self.translations = translations
    }

    /// The source entry of `key`, nil when the source has no such key.
    public func sourceEntry(_ key: String) -> SourceEntry? { source.first { $0.key == key } }

    /// The locales that have translations, in `CatalogLocale` order (lookd's 50 in their order, then others).
    public var locales: [CatalogLocale] { translations.keys.sorted() }

    /// Reads `en.json` and every `TAG.json` in `directory` whose name is a BCP 47 tag of a language ICU knows
    /// (lookd's 50 and any other: `en-GB.json`, `eu.json`), except the pseudo-locales. Throws `CatalogError`
    /// naming the file (missing directory or source, unreadable file, not the JSON shape a catalog has).
    public static func load(directory: URL) throws -> CatalogContent {
        let sourceURL = directory.appendingPathComponent("en.json")
        guard let sourceData = FileManager.default.contents(atPath: sourceURL.path) else {
            throw CatalogError.missingSource(directory: directory.path)
        }
        var content = CatalogContent(source: try readSource([UInt8](sourceData), path: sourceURL.path))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let locales = names.compactMap { name -> CatalogLocale? in
            guard name.hasSuffix(".json") else { return nil }
            let base = String(name.dropLast(5))
            guard let locale = CatalogLocale(tag: base), locale.identifier == base, locale != .english, !locale.isPseudo,
                  locale.isKnownToICU else { return nil }
            return locale
        }
        for locale in locales.sorted() {
            let url = directory.appendingPathComponent(locale.identifier + ".json")
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            content.translations[locale] = try readLocale([UInt8](data), path: url.path)
        }
        return content
    }

    /// Parses `en.json` bytes; `path` names the file in errors.
    public static func readSource(_ bytes: [UInt8], path: String) throws -> [SourceEntry] {
        try members(bytes, path: path).map { member in
            guard let message = member.value["message"]?.stringValue else {
                throw CatalogError.invalidContent(path: path, detail: "key '\(member.key)' needs an object with a string \"message\"")
            }
            return SourceEntry(key: member.key, message: message, description: member.value["description"]?.stringValue,
                               maxLength: member.value["maxLength"]?.intValue)
        }
    }

    /// Parses `TAG.json` bytes; `path` names the file in errors.
    public static func readLocale(_ bytes: [UInt8], path: String) throws -> [Translation] {
        try members(bytes, path: path).map { member in
            guard let pattern = member.value.stringValue else {
                throw CatalogError.invalidContent(path: path, detail: "key '\(member.key)' must map to a string pattern")
            }
            return Translation(key: member.key, pattern: pattern)
        }
    }

    /// The top-level members in file order (a key named twice is kept twice, as the file has it).
    private static func members(_ bytes: [UInt8], path: String) throws -> [JSONDocument.Member] {
        let tree: JSONDocument
        do {
            tree = try JSONReader.readDocument(bytes, options: .formatFile)
        } catch {
            throw CatalogError.invalidContent(path: path, detail: "not valid JSON (\(error))")
        }
        guard let members = tree.members else {
            throw CatalogError.invalidContent(path: path, detail: "the top level must be a JSON object")
        }
        return members
    }

    /// `en.json` as lookd writes it (``JSONLayout/catalog``): one entry a line,
    /// `{"message": …, "description": …, "maxLength": …}`, a blank line where the key's first dot-separated
    /// segment changes.
    public var sourceFile: [UInt8] {
        var writer = Self.fileWriter(entries: source.count)
        var previousGroup: Substring?
        for entry in source {
            let group = entry.key.split(separator: ".", maxSplits: 1).first ?? ""
            if let previousGroup, previousGroup != group { writer.blankLine() }
            previousGroup = group
            writer.key(entry.key)
            writer.beginObject()
            writer.member(static: "message", entry.message)
            if let description = entry.description { writer.member(static: "description", description) }
            if let maxLength = entry.maxLength {
                writer.key(static: "maxLength")
                writer.number(maxLength)
            }
            writer.endObject()
        }
        return Self.finish(&writer)
    }

    /// `TAG.json` as lookd writes it: `"key": "pattern"` a line, no blank lines. Nil when the locale has no
    /// translations.
    public func localeFile(_ locale: CatalogLocale) -> [UInt8]? {
        guard let entries = translations[locale] else { return nil }
        var writer = Self.fileWriter(entries: entries.count)
        for entry in entries { writer.member(entry.key, entry.pattern) }
        return Self.finish(&writer)
    }

    /// A writer in lookd's file layout with the top-level object begun.
    private static func fileWriter(entries: Int) -> JSONWriter {
        var writer = JSONWriter(layout: .catalog, capacity: 64 + entries * 96)
        writer.beginObject()
        return writer
    }

    /// Closes the top-level object and ends the file with a line feed; an empty catalog is `{`, a line feed, `}`.
    private static func finish(_ writer: inout JSONWriter) -> [UInt8] {
        writer.endObject()
        writer.lineFeed()
        let bytes = writer.bytes
        return bytes == Array("{}\n".utf8) ? Array("{\n}\n".utf8) : bytes
    }

    /// Every file: `en.json` first, then `TAG.json` for each locale with translations, in `CatalogLocale` order.
    public var files: [(name: String, bytes: [UInt8])] {
        [("en.json", sourceFile)] + locales.compactMap { locale in localeFile(locale).map { (locale.identifier + ".json", $0) } }
    }
}
