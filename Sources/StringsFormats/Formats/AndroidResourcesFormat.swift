import Foundation
import Strings

/// Android resources: `values/strings.xml` (English, the default) and `values-<qualifier>/strings.xml` for each
/// locale (`AndroidQualifier`). A plain message is a `<string>`, a message that is one plural is `<plurals>`
/// with ICU's categories as quantities; arguments are `%1$s` / `%1$d` (`%s` / `%d` when there is one).
/// Resource names are the catalog keys (letters, digits, `_` and `.`; Android turns `.` into `_` for `R`, so
/// keys that meet there are refused); select cases are `KEY__ARG__CASE`. The English file carries each
/// entry's comment (`EntryComment`).
///
/// `=0`: Android picks `quantity="zero"` only in languages whose plural rules have a zero category (of the 50,
/// Arabic). Elsewhere the item is kept so import loses nothing, but Android shows 0 with the category CLDR
/// gives it (English: `other`, "0 characters left"); the file says so in a comment. Android plurals are whole
/// strings: text around a plural goes into each item (and back out on import); several plurals in one message
/// are refused.
public struct AndroidResourcesFormat: CatalogFormat {
    public var importsSource: Bool { true }
    public let name = "android"

    public init() {}

    static let fileName = "strings.xml"

    public func write(_ content: CatalogContent) throws -> FormatFiles {
        // Every refusal in one run: what the conversion refuses, and Android's own rules on the rest.
        let (exportable, refused) = content.droppingWhatExportRefuses()
        var catalog = try PrintfCatalog(exportable)
        for index in catalog.units.indices where catalog.units[index].messages[.english]?.textMovedIntoPlural != nil {
            catalog.units[index].comment.textAroundPlural = true
            catalog.units[index].messages = catalog.units[index].messages.mapValues { $0.textMovedIntoPlural ?? $0 }
        }
        var problems = refused
        var javaNames: [String: String] = [:]
        for unit in catalog.units {
            let name = unit.selectCase?.androidName(unit.key) ?? unit.key
            if let reason = Self.invalidNameReason(unit.key) {
                problems.append(.init(key: unit.key, reason: reason))
                continue
            }
            let field = name.replacingOccurrences(of: ".", with: "_")
            if let other = javaNames[field], other != name {
                problems.append(.init(key: unit.key, reason: "its resource name '\(name)' and '\(other)' are both R.string.\(field)"))
            }
            javaNames[field] = name
            for (locale, message) in unit.messages where message.plurals.count > 1 {
                problems.append(.init(key: unit.key, locale: locale.identifier, reason: "Android plurals are whole strings: this message has \(message.plurals.count) plurals"))
            }
        }
        if !problems.isEmpty { throw ConversionError(problems) }
        var files: [String: [UInt8]] = [:]
        for locale in Set(catalog.units.flatMap(\.messages.keys)).sorted() {
            let units = catalog.units.filter { $0.messages[locale] != nil }
            guard !units.isEmpty else { continue }
            let document = Array(Self.document(units, locale: locale).utf8)
            for directory in AndroidQualifier.directories(for: locale) { files[directory + "/" + Self.fileName] = document }
        }
        return FormatFiles(files)
    }

    /// Why a key cannot be a resource name, nil when it can.
    static func invalidNameReason(_ key: String) -> String? {
        guard let first = key.unicodeScalars.first, first.properties.isAlphabetic || first == "_", first.isASCII else {
            return "a resource name must start with an ASCII letter or '_'"
        }
        guard key.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == ".") }) else {
            return "a resource name may only hold ASCII letters, digits, '_' and '.'"
        }
        guard !key.contains("__") else { return "'__' is reserved for select cases (KEY__ARG__CASE)" }
        return nil
    }

    private static func document(_ units: [PrintfCatalog.Unit], locale: CatalogLocale) -> String {
        let dialect = PrintfDialect.android
        var lines = ["<?xml version=\"1.0\" encoding=\"utf-8\"?>",
                     "<!-- Exported by lookd from its catalogs (\(locale.identifier)). Edit the catalogs, not this file. -->"]
        let keepsZero = !ZeroCaseRule.hasZero(locale) && units.contains { unit in
            unit.messages[locale]?.plurals.contains { $0.variants.contains { $0.category == .zero } } == true
        }
        if keepsZero {
            lines.append("<!-- quantity=\"zero\" items hold the catalog's =0 text. Android uses \"zero\" only in languages whose plural rules have it (of lookd's 50, Arabic); in this language 0 shows the \"\(PluralRules.forLocale(locale.conventionsIdentifier)?.category(for: 0).rawValue ?? "other")\" item, so check for 0 in the app where the =0 wording matters. -->")
        }
        lines.append("<resources>")
        for unit in units {
            guard let message = unit.messages[locale] else { continue }
            let name = XMLEscaping.escape(unit.selectCase?.androidName(unit.key) ?? unit.key, attribute: true)
            if locale == .english, let comment = unit.comment.text {
                lines.append("    <!-- " + XMLCommentText.encode(comment) + " -->")
            }
            func text(_ pieces: [PrintfMessage.Piece], count: String = "") -> String {
                XMLEscaping.escape(AndroidStringEscaping.escape(dialect.spell(pieces, legend: unit.legend, count: count)))
            }
            if let plural = message.wholePlural {
                lines.append("    <plurals name=\"\(name)\">")
                for variant in plural.variants {
                    let value = text(variant.pieces, count: dialect.specifier(plural.argument, legend: unit.legend))
                    lines.append("        <item quantity=\"\(variant.category.rawValue)\">\(value)</item>")
                }
                lines.append("    </plurals>")
            } else {
                // A literal % in a string without arguments is marked so Android lint and formatting do not read
                // "50% off" as a specifier.
                let literal = unit.legend.entries.isEmpty && message.template.contains { if case .text(let text) = $0 { text.contains("%") } else { false } }
                lines.append("    <string name=\"\(name)\"\(literal ? " formatted=\"false\"" : "")>\(text(message.template))</string>")
            }
        }
        lines.append("</resources>")
        return lines.joined(separator: "\n") + "\n"
    }

    public func read(_ files: FormatFiles) throws -> CatalogContent {
        let document = AndroidResourceDocument(files: files)
        return try document.catalog().content()
    }

    /// Strings with styling tags, `translatable="false"` and `<string-array>`s are left out (and carried by the
    /// original an import keeps); a file that is not XML is a problem of its own, the others are still read.
    public func readSkippingProblems(_ files: FormatFiles) throws -> (content: CatalogContent, problems: [ConversionError.Problem]) {
        let (catalog, problems) = AndroidResourceDocument(files: files).catalogSkippingProblems(readingMarkup: false)
        let (content, more) = catalog.contentSkippingProblems()
        let (known, unknown) = content.droppingLocalesICUDoesNotKnow()
        let (exportable, refused) = known.droppingWhatExportRefuses()
        return (exportable, problems + more + unknown + refused)
    }

    public func write(_ content: CatalogContent, onto original: FormatFiles) throws -> FormatFiles {
        let imported = (try? readSkippingProblems(original).content) ?? CatalogContent(source: [])
        return AndroidResourcesTemplate.merge(original: original, imported: imported, content: content, fresh: try write(content))
    }
}
