import StableJSON

extension JSONReader.DocumentOptions {
    /// How the formats read the JSON files they are given (String Catalogs, lookd catalogs): members in file
    /// order with duplicate keys kept (the reader of each format decides), nesting to 64 levels, and no bound on
    /// strings or values (the caller chose the file; a String Catalog of 2,000 keys × 50 locales holds millions).
    static let formatFile = JSONReader.DocumentOptions(limits: .init(maxDepth: 64, maxStringBytes: .max, maxValues: .max), duplicateKeys: .keep)
}
