import Strings

/// Apple String Catalogs (`Localizable.xcstrings`): one JSON file, `sourceLanguage` `en`, every unit of the
/// `PrintfCatalog` as a string with all its localizations in state `translated`, the `EntryComment` as the
/// comment. A message that is one plural of its only argument is `variations.plural`; any other plural
/// (text around it, more arguments, several plurals) is a `substitutions` entry per plural argument.
/// Reading refuses what it cannot map (device or width variations, unknown locales) with the key named, and skips
/// the pseudo-locales en-XA and ar-XB (written only by an export with them, never read back as catalogs).
public struct StringCatalogFormat: CatalogFormat {
    public var importsSource: Bool { true }
    public let name = "xcstrings"

    public init() {}

    public func write(_ content: CatalogContent) throws -> FormatFiles {
        let catalog = try PrintfCatalog(content)
        var strings: [(String, JSONOutput)] = []
        for unit in catalog.units {
            var entry: [(String, JSONOutput)] = []
            if let comment = unit.comment.text { entry.append(("comment", .string(comment))) }
            entry.append(("extractionState", .string("manual")))
            let localizations = LocaleTag.allIncludingPseudo.sorted { $0.identifier < $1.identifier }.compactMap { locale in
                unit.messages[locale].map { (locale.identifier, localization($0, legend: unit.legend)) }
            }
            entry.append(("localizations", .object(localizations)))
            strings.append((unit.selectCase?.appleKey(unit.key) ?? unit.key, .object(entry)))
        }
        let document = JSONOutput.object([("sourceLanguage", .string("en")), ("strings", .object(strings)), ("version", .string("1.0"))])
        return FormatFiles(["": Array((document.text(indent: 0) + "\n").utf8)])
    }

    private func stringUnit(_ value: String) -> JSONOutput {
        .object([("stringUnit", .object([("state", .string("translated")), ("value", .string(value))]))])
    }

    private func pluralVariants(_ plural: PrintfMessage.Plural, legend: ArgumentLegend, count: String) -> JSONOutput {
        .object([("plural", .object(plural.variants.map { variant in
            (variant.category.rawValue, stringUnit(PrintfDialect.apple.spell(variant.pieces, legend: legend, count: count)))
        }))])
    }

    private func localization(_ message: PrintfMessage, legend: ArgumentLegend) -> JSONOutput {
        let dialect = PrintfDialect.apple
        if message.plurals.isEmpty { return stringUnit(dialect.spell(message.template, legend: legend)) }
        if let plural = message.wholePlural, legend.entries.count == 1 {
            return .object([("variations", pluralVariants(plural, legend: legend, count: dialect.specifier(plural.argument, legend: legend)))])
        }
        let template = dialect.spell(message.template, legend: legend) { "%#@\(legend.entries[$0 - 1].name)@" }
        let substitutions = message.plurals.map { plural in
            (legend.entries[plural.argument - 1].name, JSONOutput.object([
                ("argNum", .integer(plural.argument)),
                ("formatSpecifier", .string(dialect.integerConversion)),
                ("variations", pluralVariants(plural, legend: legend, count: "%arg")),
            ]))
        }
        guard case .object(let unit) = stringUnit(template) else { return stringUnit(template) }
        return .object(unit + [("substitutions", .object(substitutions))])
    }

    public func read(_ files: FormatFiles) throws -> CatalogContent {
        guard let bytes = files.single ?? (files.files.count == 1 ? files.files.values.first : nil) else {
            throw ConversionError(key: nil, reason: "a String Catalog is one .xcstrings file")
        }
        return try StringCatalogDocument(bytes: bytes).catalog().content()
    }
}
