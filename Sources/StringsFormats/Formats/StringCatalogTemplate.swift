import StableJSON
import Strings

/// A String Catalog export shaped by the catalog an import read (the *original*, kept beside the catalogs):
/// whatever the catalogs did not change since that import is written as the original has it, so import then
/// export gives back the same file. Per string and localization:
/// - unchanged (the catalogs hold what importing the original gives, or neither holds it) → the original's
///   member as it is: `state` (`new`, `needs_review`, `stale`), `extractionState`, the comment without lookd's
///   lines, the specifiers as spelled (`%@ %@`, `%d`), substitution names, device variations, a missing `en`;
/// - changed or new → lookd's own rendering (`StringCatalogFormat`) of that localization (or string), its
///   specifiers spelled as the file spells them where the meaning stays (`PrintfSpecifierSpelling`) and its
///   substitutions named as the file names them (`StringCatalogSubstitutionNames`);
/// - gone from the catalogs (it was imported, the catalogs no longer have it) → left out.
/// Strings the import did not read (`shouldTranslate: false`, what lookd cannot hold) are kept as they are, as
/// are the top-level members (`version`, `sourceLanguage`). When nothing changed the original bytes are
/// returned; otherwise the tree is written in Xcode's layout (new strings after the original's). Pure.
enum StringCatalogTemplate {
    /// What the catalogs say of one key: the source's message and metadata, and each locale's pattern.
    struct KeyState: Equatable {
        var source: CatalogContent.SourceEntry?
        var patterns: [CatalogLocale: String] = [:]
    }

    static func states(_ content: CatalogContent) -> [String: KeyState] {
        var states: [String: KeyState] = [:]
        for entry in content.source where states[entry.key] == nil { states[entry.key] = KeyState(source: entry) }
        for (locale, entries) in content.translations {
            for entry in entries where states[entry.key]?.patterns[locale] == nil {
                states[entry.key, default: KeyState()].patterns[locale] = entry.pattern
            }
        }
        return states
    }

    /// `fresh` (lookd's rendering of `content`) laid onto `original`; `imported` is what importing `original` gives.
    static func merge(original bytes: [UInt8], imported: CatalogContent, content: CatalogContent, fresh: JSONDocument) throws -> [UInt8] {
        let original = try JSONReader.readDocument(bytes, options: .formatFile)
        guard let strings = original["strings"]?.members else { return JSONWriter.bytes(fresh, layout: .xcode, lineFeed: true) }
        let sourceLanguage = original["sourceLanguage"]?.stringValue ?? "en"
        let before = states(imported)
        let now = states(content)
        let freshStrings = fresh["strings"]?.members ?? []
        let freshByKey = Dictionary(freshStrings.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        var merged: [JSONDocument.Member] = []
        var seen: Set<String> = []
        for member in strings {
            seen.insert(member.key)
            let key = SelectCase.parse(appleKey: member.key)?.key ?? member.key
            let old = before[key] ?? KeyState()
            let new = now[key] ?? KeyState()
            if old == new || member.value["shouldTranslate"]?.boolValue == false {
                merged.append(member)
                continue
            }
            // Imported, then removed from the catalogs.
            guard new.source != nil, let replacement = freshByKey[member.key] else {
                if old.source == nil { merged.append(member) }
                continue
            }
            merged.append(.init(member.key, entry(member.value, key: member.key, replacement: replacement, old: old, new: new, sourceLanguage: sourceLanguage)))
        }
        for member in freshStrings where !seen.contains(member.key) { merged.append(member) }
        let top = (original.members ?? []).map { member in
            member.key == "strings" ? JSONDocument.Member(member.key, JSONDocument.object(merged)) : member
        }
        let result = JSONDocument.object(top)
        if result.jsonValue == original.jsonValue { return bytes }
        return JSONWriter.bytes(result, layout: .xcode, lineFeed: bytes.last == UInt8(ascii: "\n"))
    }

    /// One string's object: the original's members, with the comment and each changed localization taken from
    /// `replacement` (lookd's rendering).
    private static func entry(_ original: JSONDocument, key: String, replacement: JSONDocument, old: KeyState, new: KeyState, sourceLanguage: String) -> JSONDocument {
        var members: [JSONDocument.Member] = []
        // A localization the file did not have is spelled as the file spells the string's source text (its
        // source-language localization, else the key, which Xcode's extracted strings are).
        let sourceSpelling = original["localizations"]?[sourceLanguage].flatMap(PrintfSpecifierSpelling.init(localization:))
            ?? PrintfSpecifierSpelling(values: [key])
        let metadataChanged = old.source?.description != new.source?.description || old.source?.maxLength != new.source?.maxLength
        var placedLocalizations = false
        for member in original.members ?? [] {
            switch member.key {
            case "comment":
                if !metadataChanged { members.append(member) } else if let comment = replacement["comment"] { members.append(.init("comment", comment)) }
            case "localizations":
                placedLocalizations = true
                members.append(.init("localizations", localizations(member.value, replacement: replacement["localizations"], old: old, new: new,
                                                                    sourceLanguage: sourceLanguage, sourceSpelling: sourceSpelling)))
            default:
                members.append(member)
            }
        }
        if metadataChanged, original["comment"] == nil, let comment = replacement["comment"] {
            members.insert(.init("comment", comment), at: 0)
        }
        if !placedLocalizations, let fresh = replacement["localizations"] {
            members.append(.init("localizations", localizations(.object([]), replacement: fresh, old: old, new: new, sourceLanguage: sourceLanguage,
                                                                sourceSpelling: sourceSpelling)))
        }
        return .object(members)
    }

    private static func pattern(_ state: KeyState, tag: String, sourceLanguage: String) -> String? {
        if tag == sourceLanguage { return state.source?.message }
        return CatalogLocale(tag: tag).flatMap { state.patterns[$0] }
    }

    /// The original's localizations, each changed one replaced by lookd's rendering in the file's specifier spelling
    /// and with the file's substitution names (that localization's own, else the source language's).
    private static func localizations(_ original: JSONDocument, replacement: JSONDocument?, old: KeyState, new: KeyState, sourceLanguage: String,
                                      sourceSpelling: PrintfSpecifierSpelling?) -> JSONDocument {
        let fresh = replacement?.members ?? []
        let sourceNames = original[sourceLanguage].flatMap(StringCatalogSubstitutionNames.init(localization:))
        var members: [JSONDocument.Member] = []
        var seen: Set<String> = []
        for member in original.members ?? [] {
            seen.insert(member.key)
            if pattern(old, tag: member.key, sourceLanguage: sourceLanguage) == pattern(new, tag: member.key, sourceLanguage: sourceLanguage) {
                members.append(member)
            } else if let rendered = fresh.first(where: { $0.key == member.key }) {
                let spelling = PrintfSpecifierSpelling(localization: member.value) ?? sourceSpelling
                let names = StringCatalogSubstitutionNames(localization: member.value) ?? sourceNames
                let respelled = spelling?.respelling(rendered.value) ?? rendered.value
                members.append(.init(rendered.key, names?.renaming(respelled) ?? respelled))
            }
        }
        for member in fresh where !seen.contains(member.key) {
            // The source language is added only when it changed (Xcode's extracted strings have none: the key is the text).
            if pattern(old, tag: member.key, sourceLanguage: sourceLanguage) == pattern(new, tag: member.key, sourceLanguage: sourceLanguage) { continue }
            let respelled = sourceSpelling?.respelling(member.value) ?? member.value
            members.append(.init(member.key, sourceNames?.renaming(respelled) ?? respelled))
        }
        // New ones go where Xcode puts them when the original is in Xcode's order (sorted), else last.
        let ordered = { (members: [JSONDocument.Member]) in members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } }
        let originalKeys = (original.members ?? []).map(\.key)
        return .object(ordered(original.members ?? []).map(\.key) == originalKeys ? ordered(members) : members)
    }
}
