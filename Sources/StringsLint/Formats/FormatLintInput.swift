import Foundation
import Strings
import StringsFormats

/// A catalog in another format handed to the linter: a String Catalog (`.xcstrings`), an Android `res/`
/// directory, or an XLIFF 1.2 file, with its name (a path for the CLI) and files.
public struct FormatLintInput: Sendable {
    public let name: String
    public let files: FormatFiles
    let reader: any FormatLintReader
    /// Checks the project's Android `lint.xml` turns off (`<issue id="MissingTranslation" severity="ignore"/>`).
    public var ignoredChecks: Set<LintCheck> = []
    /// Severities the project's Android `lint.xml` gives checks (`<issue id="MissingTranslation"
    /// severity="warning"/>`): each check's default, below what `lookd-lint.json` says.
    public var checkSeverities: [LintCheck: LintSeverity] = [:]
    /// Set when the path given was one file or locale folder inside the input (`res/values-de/strings.xml`,
    /// `res/values-de`): its path relative to the input; only findings in it are reported, checked against
    /// the project's source as a whole.
    public var scope: String?
    /// Set for a flavour's `res/` folder holding translations only (`FlavourResources`): the module's main `res/`
    /// folder, whose English is read as this input's `values/strings.xml` (its findings are main's, not reported
    /// here); `providedByMain` holds, by locale, the keys main's file of that locale has (not missing here).
    public var mainResources: String?
    var providedByMain: [String: Set<String>] = [:]

    /// How many files the input is (the files of a `res/` folder's `values*` folders holding strings — `strings.xml`,
    /// or another file with a `<string` or `<plurals` element —, main's English not counted for a flavour's; 1 otherwise).
    public var fileCount: Int {
        let holding = files.files.filter { path, bytes in
            path.isEmpty || path.hasSuffix("/strings.xml")
                || (path.hasSuffix(".xml") && (bytes.firstRange(of: Array("<string ".utf8)) != nil || bytes.firstRange(of: Array("<plurals ".utf8)) != nil))
        }
        return max(1, holding.count - (mainResources == nil ? 0 : 1))
    }

    /// The input at `path` when it is one of the three formats (by extension, an Xcode `.xcloc` bundle — its
    /// `Localized Contents/TAG.xliff` —, or a directory with strings in `values/`: `AndroidValuesFolder`); nil for anything else (lookd JSON catalogs are linted as before).
    /// Throws when the file or directory cannot be read.
    public static func detect(path: String) throws -> FormatLintInput? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue, path.hasSuffix(".xcloc") || path.hasSuffix(".xcloc/") {
            let contents = (path as NSString).appendingPathComponent("Localized Contents")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: contents)) ?? []
            guard let xliff = names.sorted().first(where: { $0.hasSuffix(".xliff") }) else { return nil }
            let file = (contents as NSString).appendingPathComponent(xliff)
            return FormatLintInput(name: file, files: try FormatFiles.load(path: file), reader: XLIFFLintReader())
        }
        if let (res, relative) = androidResources(containing: path, isDirectory: isDirectory.boolValue) {
            var input = try detect(path: res)
            input?.scope = relative
            return input
        }
        if isDirectory.boolValue {
            let main = FlavourResources.mainResources(of: path)
            guard main != nil || AndroidValuesFolder.holdsStrings(path) else { return nil }
            // Only the files the reader reads (`values*/*.xml`), not a res/ folder's images and layouts.
            var files = try FormatFiles.load(path: path) { AndroidValuesFolder.isValuesFile($0) }
            let reader = AndroidLintReader(composeResources: (path.hasSuffix("/") ? String(path.dropLast()) : path).hasSuffix("composeResources"))
            var input = FormatLintInput(name: path, files: files, reader: reader)
            if let main {
                let english = (main as NSString).appendingPathComponent("values/strings.xml")
                files.files["values/strings.xml"] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: english)))
                input = FormatLintInput(name: path, files: files, reader: reader)
                input.mainResources = main
                input.providedByMain = FlavourResources.providedByMain(main, folders: files.files.keys.compactMap { $0.split(separator: "/").first.map(String.init) })
            }
            input.checkSeverities = AndroidLintIssues.severities(projectAbove: path)
            input.ignoredChecks = Set(input.checkSeverities.filter { $0.value == .off }.keys)
            return input
        }
        let readers: [String: any FormatLintReader] = ["xcstrings": StringCatalogLintReader(), "xliff": XLIFFLintReader(), "xlf": XLIFFLintReader()]
        guard let reader = readers[(path as NSString).pathExtension.lowercased()] else { return nil }
        return FormatLintInput(name: path, files: try FormatFiles.load(path: path), reader: reader)
    }

    /// For a `values*/*.xml` file or a `values*` folder of an Android `res/` folder (one with strings in `values/`:
    /// `AndroidValuesFolder`, or a flavour's holding translations only: `FlavourResources`): that `res/` folder and
    /// the path's place in it.
    static func androidResources(containing path: String, isDirectory: Bool) -> (res: String, relative: String)? {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        let folder = isDirectory ? trimmed : (trimmed as NSString).deletingLastPathComponent
        guard isDirectory || (trimmed as NSString).pathExtension == "xml" else { return nil }
        let folderName = (folder as NSString).lastPathComponent
        guard folderName == "values" || folderName.hasPrefix("values-") else { return nil }
        let parent = (folder as NSString).deletingLastPathComponent
        let res = parent.isEmpty ? "." : parent
        guard AndroidValuesFolder.holdsStrings(res) || FlavourResources.mainResources(of: res) != nil else { return nil }
        return (res, isDirectory ? folderName : folderName + "/" + (trimmed as NSString).lastPathComponent)
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
    /// Whether one file holds every locale (a String Catalog), so messages must name the locale.
    var holdsSeveralLocales = false
    var problems: [ConversionError.Problem] = []
    var states: [State] = []
    /// (locale, key) → place.
    var places: [PlaceKey: Place] = [:]
    /// A format whose locales keep a key's entries at one place (an XLIFF unit holds the source and its target):
    /// key → place, for each locale of `keyPlaceLocales`, where `places` has none. One hashed string a unit instead
    /// of two (locale, key) entries (`lookd lint` on one `lint-xliff` bench file, callgrind: see `XLIFFLintReader`).
    var keyPlaces: [String: Place] = [:]
    var keyPlaceLocales: [String] = []
    /// Each locale's file, for findings about a whole locale.
    var localeFiles: [String: Place] = [:]
    /// Checks the project turned off where it stands: (locale, key) → checks, `*` for every locale or key
    /// (Android's `tools:ignore`).
    var suppressions: [PlaceKey: Set<LintCheck>] = [:]
    /// Plurals are selected with integers only (Android's `getQuantityString`): a plural without `other` in a
    /// locale whose integers never select `other` (Polish, Russian) is complete.
    var integerPlurals = false
    /// Each key's arguments as the format declares them (a String Catalog key's own specifiers): a translation
    /// may use one its English text leaves out ("%lld likes" shown as "Liked" in English).
    var declaredArguments: [String: Set<String>] = [:]

    /// Where (locale, key) sits: `places`, else `keyPlaces` for its locales.
    func place(locale: String, key: String) -> Place? {
        if let place = places[Self.placeKey(locale: locale, key: key)] { return place }
        return keyPlaceLocales.contains(locale) ? keyPlaces[key] : nil
    }

    /// The first place of a locale's entries (by position), if it has any.
    func firstPlace(of locale: String) -> Place? {
        let placed = places.filter { $0.key.locale == locale }.values.min { $0.position < $1.position }
        guard keyPlaceLocales.contains(locale), let keyed = keyPlaces.values.min(by: { $0.position < $1.position }) else { return placed }
        guard let placed else { return keyed }
        return keyed.position < placed.position ? keyed : placed
    }

    /// Whether `check` is turned off for (locale, key) by a suppression.
    func suppresses(_ check: LintCheck, locale: String?, key: String?) -> Bool {
        for scope in [(locale ?? "*", key ?? "*"), ("*", key ?? "*"), (locale ?? "*", "*"), ("*", "*")] {
            if suppressions[Self.placeKey(locale: scope.0, key: scope.1)]?.contains(check) == true { return true }
        }
        return false
    }

    /// A locale and a key, as `places`, `suppressions` and the linter's sets of unreadable messages look them up.
    /// The two strings, not one joined "locale\u{0}key": joining them allocated a string for every look-up (two
    /// places a unit, 4.3 of the 296 million instructions of `lookd lint` on one `lint-xliff` bench file, callgrind,
    /// 3 Dec 2026).
    struct PlaceKey: Hashable {
        let locale: String
        let key: String
    }

    static func placeKey(locale: String, key: String) -> PlaceKey { PlaceKey(locale: locale, key: key) }
}

/// Reads one format for the linter. One implementation per format.
protocol FormatLintReader: Sendable {
    func reading(_ files: FormatFiles) -> FormatLintReading
}
