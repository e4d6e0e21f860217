/// One catalog as the linter takes it: a file (name and bytes, read when it is checked) or a document a format's
/// reader built in memory (`Linter+Formats`: no JSON written only to be read back). A value type.
enum LintedCatalog: Sendable {
    case input(CatalogInput)
    case document(name: String, CatalogDocument)

    /// Why a catalog could not be read.
    struct Unreadable: Error {
        let reason: String
    }

    var name: String {
        switch self {
        case .input(let input): input.name
        case .document(let name, _): name
        }
    }

    /// The tag its name gives (`CatalogInput.tag`).
    var tag: String { CatalogInput.tag(name: name) }

    /// The document: read from the bytes (never fails for bytes: problems are in the document), or why not.
    func document() -> Result<CatalogDocument, Unreadable> {
        switch self {
        case .input(let input):
            switch input.contents {
            case .bytes(let bytes): .success(CatalogDocument(bytes: bytes))
            case .unreadable(let reason): .failure(Unreadable(reason: reason))
            }
        case .document(_, let document): .success(document)
        }
    }
}
