import Foundation

/// A file format lookd's catalogs are exported to and imported from. Each format is one type; callers pick one
/// by name (`CatalogFormats.named`) and never branch on which it is. Implementations are pure values: safe from
/// any thread.
public protocol CatalogFormat: Sendable {
    /// The `--format` name: `xcstrings`, `android`, `xliff`.
    var name: String { get }

    /// Whether an import replaces the source and every locale (String Catalogs, Android resources) or only
    /// delivers one locale's translations for the existing source (XLIFF).
    var importsSource: Bool { get }

    /// The files that carry `content`. Throws `ConversionError` listing every key and locale that cannot be
    /// expressed (never flattens them).
    func write(_ content: CatalogContent) throws -> FormatFiles

    /// The catalogs `files` carry (for a one-locale format, the source plus that locale). Throws
    /// `ConversionError` naming the key, locale and file of what cannot be read.
    func read(_ files: FormatFiles) throws -> CatalogContent

    /// `write(_:)` shaped by `original`, the files an import read (kept beside the catalogs): what the catalogs
    /// did not change since is written as `original` has it, byte for byte when nothing changed; what they
    /// cannot hold (and the import left out) is kept. Throws `ConversionError` as `write(_:)` does.
    func write(_ content: CatalogContent, onto original: FormatFiles) throws -> FormatFiles

    /// What `read(_:)` gives, leaving out each string or localization it cannot read, and those problems.
    /// Throws `ConversionError` only when the files cannot be read at all (not JSON or XML, not the format).
    func readSkippingProblems(_ files: FormatFiles) throws -> (content: CatalogContent, problems: [ConversionError.Problem])
}

extension CatalogFormat {
    /// A format that has no template export writes `content` as it always does.
    public func write(_ content: CatalogContent, onto original: FormatFiles) throws -> FormatFiles { try write(content) }

    /// A format that cannot skip: all or nothing.
    public func readSkippingProblems(_ files: FormatFiles) throws -> (content: CatalogContent, problems: [ConversionError.Problem]) {
        (try read(files), [])
    }
}

/// The formats by name.
public enum CatalogFormats {
    /// `xcstrings` and `android`; `xliff` needs a locale, see `named(_:locale:)`.
    public static let names = ["xcstrings", "android", "xliff"]

    /// The format called `name`; `locale` is the XLIFF's target locale (required for writing XLIFF, read from
    /// the file otherwise). Nil for an unknown name.
    public static func named(_ name: String, locale: String? = nil) -> (any CatalogFormat)? {
        switch name {
        case "xcstrings": StringCatalogFormat()
        case "android": AndroidResourcesFormat()
        case "xliff": XLIFFFormat(locale: locale)
        default: nil
        }
    }
}
