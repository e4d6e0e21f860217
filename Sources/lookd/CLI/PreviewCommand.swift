import LookdServer
import Foundation
import LookResolver
import Strings

/// `lookd preview --out DIR [--lang TAG]… [--appearance light|dark|both|increased|…] [FILE|-]`
enum PreviewCommand: Command {
    static let name = "preview"
    static let summary = "write the chat's look preview as HTML pages, for designers and CI"
    static let usage = """
        lookd preview --out DIR [--lang TAG]... [--appearance VALUE] [--catalogs DIR] [FILE|-]
        lookd preview --matrix --out DIR [--catalogs DIR] [FILE|-]
        Resolves the layers in FILE ({"dashboard": {...}, "code": {...}, "inferred": {...}}; standard input for '-';
        no FILE: the defaults) and writes one self-contained HTML page per language to DIR, named
        preview-<locale>.html. --lang is negotiated (repeatable; 'all' for the 50; default en; the pseudo-locales
        en-XA and ar-XB by their exact tag). --appearance: light, dark, both (the default, side by side),
        increased-light, increased-dark, increased (the 7:1 increased-contrast palette) or all (the four).
        --matrix writes one page, preview-matrix.html: the chat across languages (en, en-XA, ar, ar-XB, ja, de),
        the four palettes, Dynamic Type sizes (default, xxxLarge, AX5) and simulated colour-vision deficiencies.
        Prints the files written. Exit 2 on bad input.
        """

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["out", "lang", "appearance", "catalogs", "matrix"])
        guard let out = arguments.value("out") else { throw UsageError("--out DIR is required\n\(usage)") }
        guard arguments.positionals.count <= 1 else { throw UsageError("one FILE at most") }
        let appearance = arguments.value("appearance") ?? "both"
        guard let panels = PreviewRequest.panels(appearance) else {
            throw UsageError(PreviewRequest.appearanceProblem(appearance))
        }
        let layers: LookLayers
        if let path = arguments.positionals.first {
            do {
                layers = try LookLayers(json: try Console.read(path: path))
            } catch let error as LookInputError {
                throw UsageError("\(path == "-" ? "standard input" : path): \(error.message)")
            }
        } else {
            layers = LookLayers()
        }
        let localizer = try CatalogLocator.localizer(arguments)
        let requested = arguments.values("lang")
        let locales: [LocaleTag] = requested.contains("all")
            ? LocaleTag.all
            : (requested.isEmpty ? [LocaleTag.english] : requested.map { localizer.negotiate(tag: $0) })
        let look = Resolver().resolve(layers)
        let directory = URL(fileURLWithPath: out)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw UsageError("cannot create \(out): \(error.localizedDescription)")
        }
        if arguments.flag("matrix") {
            guard requested.isEmpty, arguments.value("appearance") == nil else { throw UsageError("--matrix takes neither --lang nor --appearance") }
            let page: String
            do {
                page = try PreviewMatrix(subjects: [.init(role: "layers", look: look)], localizer: localizer).html()
            } catch let error as FormatError {
                throw UsageError(error.description)
            }
            try write(page, to: directory.appendingPathComponent("preview-matrix.html"))
            return 0
        }
        for locale in Set(locales).sorted() {
            let content: PreviewContent
            do {
                content = try PreviewContent(look: look, localizer: localizer, locale: locale)
            } catch let error as FormatError {
                throw UsageError("\(locale): \(error.description)")
            }
            let page = PreviewPage(look: look, content: content, panels: panels).html()
            try write(page, to: directory.appendingPathComponent("preview-\(locale.identifier).html"))
        }
        return 0
    }

    /// Writes `page` to `file` atomically and prints its path. Throws UsageError when it cannot.
    private static func write(_ page: String, to file: URL) throws {
        do {
            try Data(page.utf8).write(to: file, options: .atomic)
        } catch {
            throw UsageError("cannot write \(file.path): \(error.localizedDescription)")
        }
        print(file.path)
    }
}
