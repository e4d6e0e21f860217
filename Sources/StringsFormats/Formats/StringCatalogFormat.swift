import StableJSON
import Strings

/// Apple String Catalogs (`Localizable.xcstrings`): one JSON file, `sourceLanguage` `en`, every unit of the
/// `PrintfCatalog` as a string with all its localizations in state `translated`, the `EntryComment` as the
/// comment. A message that is one plural of its only argument is `variations.plural`; any other plural
/// (text around it, more arguments, several plurals) is a `substitutions` entry per plural argument.
/// Reading refuses what it cannot map (device or width variations, tags that are not BCP 47) with the key named, and skips
/// the pseudo-locales en-XA and ar-XB (written only by an export with them, never read back as catalogs).
public struct StringCatalogFormat: CatalogFormat {
    public var importsSource: Bool { true }
    public let name = "xcstrings"

    public init() {}

    public func write(_ content: CatalogContent) throws -> FormatFiles {
        FormatFiles(["": JSONWriter.bytes(try document(content), layout: .xcode, lineFeed: true)])
    }

    public func write(_ content: CatalogContent, onto original: FormatFiles) throws -> FormatFiles {
        guard let bytes = Self.onlyFile(original) else { return try write(content) }
        let imported = (try? readSkippingProblems(original).content) ?? CatalogContent(source: [])
        do {
            return FormatFiles(["": try StringCatalogTemplate.merge(original: bytes, imported: imported, content: content, fresh: try document(content))])
        } catch let error as JSONReadError {
            throw ConversionError(key: nil, reason: "the imported original is not JSON: \(error)", kind: .syntax)
        }
    }

    private static func onlyFile(_ files: FormatFiles) -> [UInt8]? {
        files.single ?? (files.files.count == 1 ? files.files.values.first : nil)
    }

    /// lookd's own String Catalog of `content`.
    func document(_ content: CatalogContent) throws -> JSONDocument {
        let catalog = try PrintfCatalog(content)
        var strings: [JSONDocument.Member] = []
        let locales = Set(catalog.units.flatMap(\.messages.keys)).sorted { $0.identifier < $1.identifier }
        for unit in catalog.units {
            var entry: [JSONDocument.Member] = []
            if let comment = unit.comment.text { entry.append(.init("comment", .string(comment))) }
            entry.append(.init("extractionState", .string("manual")))
            let localizations = locales.compactMap { locale in
                unit.messages[locale].map { JSONDocument.Member(locale.identifier, localization($0, legend: unit.legend)) }
            }
            entry.append(.init("localizations", .object(localizations)))
            strings.append(.init(unit.selectCase?.appleKey(unit.key) ?? unit.key, .object(entry)))
        }
        return JSONDocument.object([.init("sourceLanguage", .string("en")), .init("strings", .object(strings)), .init("version", .string("1.0"))])
    }

    private func stringUnit(_ value: String) -> JSONDocument {
        .object([.init("stringUnit", .object([.init("state", .string("translated")), .init("value", .string(value))]))])
    }

    private func pluralVariants(_ plural: PrintfMessage.Plural, legend: ArgumentLegend, count: String) -> JSONDocument {
        .object([.init("plural", .object(plural.variants.map { variant in
            .init(variant.category.rawValue, stringUnit(PrintfDialect.apple.spell(variant.pieces, legend: legend, count: count)))
        }))])
    }

    private func localization(_ message: PrintfMessage, legend: ArgumentLegend) -> JSONDocument {
        let dialect = PrintfDialect.apple
        if message.plurals.isEmpty { return stringUnit(dialect.spell(message.template, legend: legend)) }
        if let plural = message.wholePlural, legend.entries.count == 1 {
            return .object([.init("variations", pluralVariants(plural, legend: legend, count: dialect.specifier(plural.argument, legend: legend)))])
        }
        let template = dialect.spell(message.template, legend: legend) { "%#@\(legend.entries[$0 - 1].name)@" }
        let substitutions = message.plurals.map { plural in
            JSONDocument.Member(legend.entries[plural.argument - 1].name, .object([
                .init("argNum", .number(JSONNumber(plural.argument))),
                .init("formatSpecifier", .string(dialect.integerConversion)),
                .init("variations", pluralVariants(plural, legend: legend, count: "%arg")),
            ]))
        }
        guard case .object(let unit) = stringUnit(template).value else { return stringUnit(template) }
        return .object(unit + [.init("substitutions", .object(substitutions))])
    }

    public func read(_ files: FormatFiles) throws -> CatalogContent {
        guard let bytes = Self.onlyFile(files) else {
            throw ConversionError(key: nil, reason: "a String Catalog is one .xcstrings file")
        }
        return try StringCatalogDocument(bytes: bytes).catalog().content()
    }

    public func readSkippingProblems(_ files: FormatFiles) throws -> (content: CatalogContent, problems: [ConversionError.Problem]) {
        guard let bytes = Self.onlyFile(files) else {
            throw ConversionError(key: nil, reason: "a String Catalog is one .xcstrings file")
        }
        let (catalog, problems) = try StringCatalogDocument(bytes: bytes).catalogSkippingProblems()
        let (content, more) = catalog.contentSkippingProblems()
        let (known, unknown) = content.droppingLocalesICUDoesNotKnow()
        let (exportable, refused) = known.droppingWhatExportRefuses()
        return (exportable, problems + more + unknown + refused)
    }
}
