import Foundation
import Strings
import StringsFormats

/// A catalog in another format handed to the linter: a String Catalog (`.xcstrings`), an Android `res/`
/// directory, or an XLIFF 1.2 file, with its name (a path for the CLI) and files.
public struct FormatLintInput: Sendable {
    public let name: String
    public let files: FormatFiles
    let reader: any FormatLintReader

    /// The input at `path` when it is one of the three formats (by extension, or a directory holding
    /// `values/strings.xml`); nil for anything else (lookd JSON catalogs are linted as before).
    /// Throws when the file or directory cannot be read.
    public static func detect(path: String) throws -> FormatLintInput? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            guard FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("values/\("strings.xml")")) else { return nil }
            return FormatLintInput(name: path, files: try FormatFiles.load(path: path), reader: AndroidLintReader())
        }
        let readers: [String: any FormatLintReader] = ["xcstrings": StringCatalogLintReader(), "xliff": XLIFFLintReader(), "xlf": XLIFFLintReader()]
        guard let reader = readers[(path as NSString).pathExtension.lowercased()] else { return nil }
        return FormatLintInput(name: path, files: try FormatFiles.load(path: path), reader: reader)
    }

    /// An input built in memory (tests, the daemon): `kind` is `xcstrings`, `android` or `xliff`.
    public init?(name: String, kind: String, files: FormatFiles) {
        let readers: [String: any FormatLintReader] = ["xcstrings": StringCatalogLintReader(), "android": AndroidLintReader(), "xliff": XLIFFLintReader()]
        guard let reader = readers[kind] else { return nil }
        self.init(name: name, files: files, reader: reader)
    }

    init(name: String, files: FormatFiles, reader: any FormatLintReader) {
        self.name = name
        self.files = files
        self.reader = reader
    }
}

/// What a format's reader gives the linter: the catalogs as lookd catalogs, where each (locale, key) sits in
/// the original files, what could not be read, and localization states.
struct FormatLintReading {
    struct Place: Hashable {
        /// Relative path inside a directory input; nil for the input file itself.
        var file: String?
        var position: FilePosition
    }

    struct State {
        var key: String
        var locale: String
        var state: String
        var place: Place
    }

    var content = CatalogContent(source: [])
    var problems: [ConversionError.Problem] = []
    var states: [State] = []
    /// "locale\u{0}key" → place.
    var places: [String: Place] = [:]
    /// Each locale's file, for findings about a whole locale.
    var localeFiles: [String: Place] = [:]

    static func placeKey(locale: String, key: String) -> String { locale + "\u{0}" + key }
}

/// Reads one format for the linter. One implementation per format.
protocol FormatLintReader: Sendable {
    func reading(_ files: FormatFiles) -> FormatLintReading
}
