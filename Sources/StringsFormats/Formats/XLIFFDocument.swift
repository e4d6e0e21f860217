import Strings

/// A parsed XLIFF 1.2 file: its target locale and units with states and positions — what import merges and
/// lint checks. A value type.
public struct XLIFFDocument: Sendable {
    public struct Unit: Sendable {
        public let id: String
        public let source: String
        public let target: String?
        /// The target's `state` (`translated`, `needs-translation`, `needs-review-translation`, `new`, …).
        public let state: String?
        public let note: String?
        public let maxWidth: Int?
        public let position: FilePosition
    }

    public let targetLanguage: String
    public let units: [Unit]

    /// Throws `ConversionError` when the file is not XLIFF 1.2 with one `<file>` and a target language.
    public init(bytes: [UInt8]) throws {
        let root = try XMLTree.parse(bytes)
        guard root.name == "xliff", root.attributes["version"] == "1.2" else {
            throw ConversionError(key: nil, reason: "not an XLIFF 1.2 document (root <\(root.name)> version \(root.attributes["version"] ?? "none"))")
        }
        let fileElements = root.elements(named: "file")
        guard fileElements.count == 1, let file = fileElements.first else { throw ConversionError(key: nil, reason: "expected exactly one <file>, found \(fileElements.count)") }
        guard file.attributes["source-language"] == "en" else { throw ConversionError(key: nil, reason: "source-language must be en") }
        guard let target = file.attributes["target-language"] else { throw ConversionError(key: nil, reason: "<file> has no target-language") }
        targetLanguage = target
        let bodies = file.elements(named: "body")
        units = try bodies.flatMap { $0.elements(named: "trans-unit") }.map { element in
            guard let id = element.attributes["id"] else { throw ConversionError(key: nil, reason: "<trans-unit> without an id at line \(element.position.line)") }
            guard let source = element.elements(named: "source").first?.text else { throw ConversionError(key: id, reason: "<trans-unit> without <source>") }
            let targetElement = element.elements(named: "target").first
            return Unit(id: id, source: source, target: targetElement?.text, state: targetElement?.attributes["state"],
                        note: element.elements(named: "note").first?.text, maxWidth: element.attributes["maxwidth"].flatMap { Int($0) },
                        position: element.position)
        }
    }

    /// States whose target is not a translation yet; such targets are not imported.
    public static let untranslatedStates: Set<String> = ["new", "needs-translation"]

    /// The source (from the units' sources, notes and maxwidths) and the target locale's translations (targets
    /// that are present, non-empty and not in an untranslated state). Throws `ConversionError` for a target
    /// language that is not one of the 50.
    public func content() throws -> CatalogContent {
        if LocaleTag(includingPseudo: targetLanguage)?.isPseudo == true {
            throw ConversionError(key: nil, reason: "target-language '\(targetLanguage)' is a pseudo-locale, generated from English at load time: there is nothing to import")
        }
        guard let locale = LocaleTag(targetLanguage), locale != .english else {
            throw ConversionError(key: nil, reason: "target-language '\(targetLanguage)' is not one of lookd's 49 translated locales")
        }
        var content = CatalogContent(source: units.map { CatalogContent.SourceEntry(key: $0.id, message: $0.source, description: $0.note, maxLength: $0.maxWidth) })
        content.translations[locale] = units.compactMap { unit in
            guard let target = unit.target, !target.isEmpty, !Self.untranslatedStates.contains(unit.state ?? "") else { return nil }
            return CatalogContent.Translation(key: unit.id, pattern: target)
        }
        return content
    }
}
