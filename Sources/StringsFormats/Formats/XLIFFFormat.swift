import Strings

/// XLIFF 1.2 for one locale — the version CAT tools import: one `<trans-unit>` per key (id = key) with the
/// English message as `<source>`, the locale's as `<target state="translated">` (no target when the locale
/// has none), the description as `<note>`, `maxLength` as `maxwidth` with `size-unit="char"`, and
/// `xml:space="preserve"`. Messages stay ICU MessageFormat text (CAT tools with ICU support show plurals;
/// others show the pattern). Reading gives the source and that locale.
public struct XLIFFFormat: CatalogFormat {
    public var importsSource: Bool { false }
    public let name = "xliff"
    /// The target locale tag; required for writing.
    public let locale: String?

    public init(locale: String?) { self.locale = locale }

    public func write(_ content: CatalogContent) throws -> FormatFiles {
        guard let tag = locale, let target = CatalogLocale(tag: tag), target != .english else {
            throw ConversionError(key: nil, reason: "XLIFF export needs a target locale other than en, a BCP 47 tag (--locale TAG)")
        }
        if target.isPseudo, content.translations[target] == nil {
            throw ConversionError(key: nil, reason: "\(target.identifier) is a pseudo-locale, generated from English: export it with --pseudo")
        }
        let translated = Dictionary((content.translations[target] ?? []).map { ($0.key, $0.pattern) }, uniquingKeysWith: { first, _ in first })
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">",
            "  <file original=\"en.json\" source-language=\"en\" target-language=\"\(target.identifier)\" datatype=\"plaintext\">",
            "    <body>",
        ]
        for entry in content.source {
            var attributes = "id=\"\(XMLEscaping.escape(entry.key, attribute: true))\""
            if let maxLength = entry.maxLength { attributes += " maxwidth=\"\(maxLength)\" size-unit=\"char\"" }
            lines.append("      <trans-unit \(attributes) xml:space=\"preserve\">")
            lines.append("        <source>\(XMLEscaping.escape(entry.message))</source>")
            if let pattern = translated[entry.key] {
                lines.append("        <target state=\"translated\">\(XMLEscaping.escape(pattern))</target>")
            }
            if let description = entry.description { lines.append("        <note>\(XMLEscaping.escape(description))</note>") }
            lines.append("      </trans-unit>")
        }
        lines += ["    </body>", "  </file>", "</xliff>"]
        return FormatFiles(["": Array((lines.joined(separator: "\n") + "\n").utf8)])
    }

    public func read(_ files: FormatFiles) throws -> CatalogContent {
        guard let bytes = files.single ?? (files.files.count == 1 ? files.files.values.first : nil) else {
            throw ConversionError(key: nil, reason: "an XLIFF is one file")
        }
        return try XLIFFDocument(bytes: bytes).content()
    }
}
