import StringsFormats

/// The `--format` (and `--locale`) options of export and import.
enum FormatArgument {
    static func format(_ arguments: Arguments) throws -> any CatalogFormat {
        guard let name = arguments.value("format") else {
            throw UsageError("--format \(CatalogFormats.names.joined(separator: "|")) is required")
        }
        guard let format = CatalogFormats.named(name, locale: arguments.value("locale")) else {
            throw UsageError("--format must be \(CatalogFormats.names.joined(separator: ", ")) (got '\(name)')")
        }
        return format
    }
}
