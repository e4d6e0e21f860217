import Foundation
import Strings

/// The `strings.xml` files of an Android `res/` directory, parsed: per locale, each `<string>` and
/// `<plurals>` with its text, comment and position — what import converts and lint checks. A value type.
public struct AndroidResourceDocument: Sendable {
    public struct Resource: Sendable {
        public let name: String
        /// The comment right before the resource (English file only carries lookd's).
        public let comment: String?
        /// `nil` for a `<string>`; the items' quantities and texts (unescaped) for `<plurals>`.
        public let items: [(quantity: String, text: String, position: FilePosition)]?
        /// The `<string>`'s text, unescaped.
        public let text: String
        public let position: FilePosition
        /// False for `formatted="false"`: the text has no arguments, `%` is literal.
        public var formatted = true
        /// Android lint issue ids of the element's `tools:ignore` (`MissingTranslation`, `MissingQuantity`, …).
        public var ignoredIssues: Set<String> = []
        /// The styling tags inside the text (`b`, `i`, `u`, `a`, …; `xliff:g` not counted), sorted, each as often
        /// as it occurs. Its text is then the text without the tags.
        public var markup: [String] = []
        /// The file holding the resource when it is not its `File`'s `path` (a document read with
        /// `everyValuesFile`: one of several files of its folder), relative to the `res/` directory.
        public var file: String?
    }

    public struct File: Sendable {
        /// `values-ar/strings.xml`, relative to the `res/` directory.
        public var path: String
        public let locale: CatalogLocale
        public var resources: [Resource]
        /// Android lint issue ids of `<resources tools:ignore="…">`: they apply to every resource of the file.
        public var ignoredIssues: Set<String> = []
    }

    /// Files of the 50 locales' primary directories, English first.
    public let files: [File]
    /// Files that could not be read (not XML, not `<resources>`, a secondary directory that differs); their
    /// resources are not in `files`.
    public let fileProblems: [ConversionError.Problem]
    /// Read for a linter (`init(files:everyValuesFile:)`): also, a resource name with `__` is one case of a select
    /// only when the select's `other` case is beside it (`SelectCase.parse(androidName:among:)`); an import keeps
    /// every `KEY__ARG__VALUE` a select case, and carries those it cannot read beside the catalogs.
    let everyValuesFile: Bool

    /// Reads every `values*/strings.xml`. Directories that are not one of the 50 locales' are skipped; a
    /// secondary directory (`values-he` next to `values-iw`) must hold the same bytes. Problems with a file are
    /// in `fileProblems`.
    /// `everyValuesFile` (a linter): every `values*/*.xml` is read, as Android merges them (element-x-android keeps
    /// English in `values/localazy.xml` and German in `values-de/translations.xml`), the files of one folder as one
    /// `File` (its `path` the folder's `strings.xml`, else its first file holding a string; each resource names its
    /// own file); resources other than strings and plurals (colors, dimensions, styles; string arrays outside
    /// `strings.xml`) are skipped, and so are the strings of a file named `donottranslate.xml`, which Android lint documents as
    /// holding the untranslatable ones, of a file whose `<resources>` says `translatable="false"`, and of an
    /// English file other than `strings.xml` that no translation has (`withoutOverlays`).
    /// `quotesAreText`: a Compose Multiplatform `composeResources` folder, whose quotes need no escaping
    /// (`AndroidStringEscaping.unescape(_:quotesAreText:)`).
    public init(files input: FormatFiles, everyValuesFile: Bool = false, quotesAreText: Bool = false) {
        self.everyValuesFile = everyValuesFile
        var files: [File] = []
        var problems: [ConversionError.Problem] = []
        for (path, bytes) in input.files.sorted(by: { $0.key < $1.key }) {
            let parts = path.split(separator: "/")
            guard parts.count >= 2, parts[parts.count - 1] == Substring(AndroidResourcesFormat.fileName) || (everyValuesFile && parts[parts.count - 1].hasSuffix(".xml")),
                  let (locale, isPrimary) = AndroidQualifier.locale(ofDirectory: String(parts[parts.count - 2])) else { continue }
            if everyValuesFile, parts[parts.count - 1] == "donottranslate.xml" { continue }
            if !isPrimary {
                let primary = parts.dropLast(2).map(String.init) + [AndroidQualifier.directories(for: locale)[0], String(parts[parts.count - 1])]
                if let other = input.files[primary.joined(separator: "/")], other != bytes {
                    problems.append(.init(key: nil, locale: locale.identifier, reason: "differs from \(primary.joined(separator: "/"))", file: path, position: .start))
                }
                if input.files[primary.joined(separator: "/")] != nil { continue }
            }
            do {
                let root = try XMLTree.parse(bytes)
                // NewPipe's values/settings_keys.xml: `<resources translatable="false">` holds preference keys.
                if everyValuesFile, root.attributes["translatable"] == "false" { continue }
                // Other resources are skipped; a string array is reported (lookd has no arrays) in strings.xml only,
                // as before every file was read: AnkiDroid's constants.xml and 10-preferences.xml hold 124 of them.
                let kept: Set<String>? = !everyValuesFile ? nil : parts[parts.count - 1] == Substring(AndroidResourcesFormat.fileName) ? ["string", "plurals", "string-array"] : ["string", "plurals"]
                let (resources, resourceProblems) = try Self.resources(root, kept: kept, quotesAreText: quotesAreText)
                var file = File(path: path, locale: locale, resources: resources)
                file.ignoredIssues = Self.ignoredIssues(root)
                if everyValuesFile {
                    // The file's tools:ignore covers its own resources only, not its folder's other files.
                    file.resources = resources.map { resource in
                        var resource = resource
                        resource.file = path
                        resource.ignoredIssues.formUnion(file.ignoredIssues)
                        return resource
                    }
                    file.ignoredIssues = []
                }
                files.append(file)
                problems += resourceProblems.map { problem in
                    var placed = problem.placed(file: path, position: nil)
                    placed.locale = locale.identifier
                    if problem.kind == .syntax, problem.reason.hasPrefix("text outside any resource"), let offset = XMLTopLevelSpans(bytes).firstText {
                        placed.position = Self.position(ofByte: offset, in: bytes)
                    }
                    return placed
                }
            } catch let error as ConversionError {
                problems += error.problems.map { .init(key: $0.key, locale: locale.identifier, reason: $0.reason, kind: .syntax, file: path, position: $0.position ?? .start) }
            } catch {}
        }
        self.fileProblems = problems
        self.files = (everyValuesFile ? Self.mergedByFolder(Self.withoutOverlays(files)) : files).sorted { $0.locale < $1.locale }
    }

    /// `files` without the strings of an English file other than `strings.xml` that no translation of the folder
    /// has: an overlay of another module's strings, translated there (thunderbird-android's
    /// `app-k9mail/src/main/res/values/funding_strings.xml` overrides the funding module's English; Android takes
    /// the translations from the module). Kept when the folder has no translations at all.
    private static func withoutOverlays(_ files: [File]) -> [File] {
        let translated = Set(files.filter { $0.locale != .english }.flatMap { $0.resources.map(\.name) })
        guard !translated.isEmpty else { return files }
        return files.map { file in
            guard file.locale == .english, !file.path.hasSuffix("/" + AndroidResourcesFormat.fileName),
                  !file.resources.contains(where: { translated.contains($0.name) }) else { return file }
            var overlay = file
            overlay.resources = []
            return overlay
        }
    }

    /// One `File` per folder: `strings.xml` first, then the others in path order (`files` is in path order).
    private static func mergedByFolder(_ files: [File]) -> [File] {
        var folders: [String: [File]] = [:]
        for file in files { folders[(file.path as NSString).deletingLastPathComponent, default: []].append(file) }
        return folders.values.map { group in
            let ordered = group.filter { $0.path.hasSuffix("/" + AndroidResourcesFormat.fileName) } + group.filter { !$0.path.hasSuffix("/" + AndroidResourcesFormat.fileName) }
            var merged = ordered.first { !$0.resources.isEmpty } ?? ordered[0]
            merged.path = ordered[0].path.hasSuffix("/" + AndroidResourcesFormat.fileName) ? ordered[0].path : merged.path
            merged.resources = ordered.flatMap(\.resources)
            return merged
        }
    }

    /// Line and column (in characters, both from 1) of the byte at `offset`.
    static func position(ofByte offset: Int, in bytes: [UInt8]) -> FilePosition {
        let lineStart = bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = bytes[..<offset].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        return FilePosition(line: line, column: bytes[lineStart..<offset].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 })
    }

    /// The issue ids of an element's `tools:ignore` (comma-separated; `all` stands for every issue).
    static func ignoredIssues(_ element: XMLTree) -> Set<String> {
        Set((element.attributes["tools:ignore"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// The resources of a file, and the problems of those that could not be read (left out).
    /// `kept`: when given, resources of other elements (`<color>`, `<dimen>`, `<style>`, …) are skipped, not reported.
    private static func resources(_ root: XMLTree, kept: Set<String>? = nil, quotesAreText: Bool = false) throws -> ([Resource], [ConversionError.Problem]) {
        guard root.name == "resources" else { throw ConversionError(key: nil, reason: "the root element is <\(root.name)>, not <resources>") }
        var resources: [Resource] = []
        var problems: [ConversionError.Problem] = []
        var comment: String?
        for child in root.children {
            switch child {
            case .comment(let text):
                var inner = Substring(text)
                if inner.hasPrefix(" ") { inner = inner.dropFirst() }
                if inner.hasSuffix(" ") { inner = inner.dropLast() }
                comment = XMLCommentText.decode(String(inner))
            case .text(let text):
                // aapt2 refuses text between resources ("found text … outside of a resource element"), so must lint.
                if let stray = text.first(where: { !$0.isWhitespace }) {
                    problems.append(.init(key: nil, reason: "text outside any resource ('\(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(40))'); aapt2 refuses the file (\(stray == "<" ? "malformed markup" : "stray text"))",
                                          kind: .syntax, position: root.position))
                }
            case .element(let element):
                defer { comment = nil }
                // Not for translation: no localization to read or check.
                if element.attributes["translatable"] == "false" { continue }
                if let kept, !kept.contains(element.name) { continue }
                guard let name = element.attributes["name"] else {
                    problems.append(.init(key: nil, reason: "<\(element.name)> without a name", kind: .syntax, position: element.position))
                    continue
                }
                do {
                    switch element.name {
                    case "string":
                        var resource = Resource(name: name, comment: comment, items: nil, text: try text(of: element, name: name, quotesAreText: quotesAreText), position: element.position)
                        resource.formatted = element.attributes["formatted"] != "false"
                        resource.ignoredIssues = ignoredIssues(element)
                        resource.markup = markup(of: element)
                        resources.append(resource)
                    case "plurals":
                        let items = try element.elements(named: "item").map { item in
                            guard let quantity = item.attributes["quantity"] else { throw ConversionError(key: name, reason: "<item> without a quantity") }
                            return (quantity: quantity, text: try text(of: item, name: name, quotesAreText: quotesAreText), position: item.position)
                        }
                        var resource = Resource(name: name, comment: comment, items: items, text: "", position: element.position)
                        resource.ignoredIssues = ignoredIssues(element)
                        resources.append(resource)
                    default:
                        throw ConversionError(key: name, reason: "<\(element.name)> has no lookd equivalent (strings and plurals only); not read", kind: .unsupported)
                    }
                } catch let error as ConversionError {
                    problems += error.problems.map { $0.placed(file: nil, position: element.position) }
                }
            }
        }
        return (resources, problems)
    }

    /// The styling tags Android's `getText` keeps (`Html`-like spans), which a string may hold.
    static let stylingTags: Set<String> = ["b", "i", "u", "a", "em", "strong", "font", "big", "small", "sup", "sub", "strike", "s",
                                           "tt", "span", "annotation", "li", "ul", "p", "br", "cite", "dfn", "q"]

    /// The styling tags below `element`, sorted, with repeats; `<xliff:g>` is not styling.
    static func markup(of element: XMLTree) -> [String] {
        element.elements.flatMap { inner in (inner.name == "xliff:g" ? [] : [inner.name]) + markup(of: inner) }.sorted()
    }

    /// A resource's text with markup removed; inline `<xliff:g>` and styling tags keep their content, any other
    /// element is refused (not misread). Whether styling may be imported is `catalog()`'s business.
    private static func text(of element: XMLTree, name: String, quotesAreText: Bool) throws -> String {
        for inner in element.elements where inner.name != "xliff:g" && !stylingTags.contains(inner.name) {
            throw ConversionError(key: name, reason: "<\(inner.name)> inside a string is not a styling tag Android knows")
        }
        do {
            return try AndroidStringEscaping.unescape(element.text, quotesAreText: quotesAreText)
        } catch let error as ConversionError {
            throw ConversionError(key: name, reason: error.problems.first?.reason ?? "bad escape", kind: .syntax)
        }
    }

    /// The resources as `PrintfCatalog` units, English's order; translations are matched by resource name.
    /// Throws one `ConversionError` with every problem.
    public func catalog() throws -> PrintfCatalog {
        let (catalog, problems) = catalogSkippingProblems(readingMarkup: false)
        if !problems.isEmpty { throw ConversionError(problems) }
        return catalog
    }

    /// `catalog()` that leaves out each resource it cannot read and returns those problems, placed at the
    /// resource in its file — what a linter needs to go on.
    /// `readingMarkup`: read a string with styling tags as its text (a linter, which compares the tags itself);
    /// false refuses it (an import would lose the tags).
    public func catalogSkippingProblems(readingMarkup: Bool = true) -> (catalog: PrintfCatalog, problems: [ConversionError.Problem]) {
        guard let english = files.first(where: { $0.locale == .english }) else {
            return (PrintfCatalog(units: []), fileProblems + [.init(key: nil, reason: "no values/strings.xml (the English source)")])
        }
        var problems = fileProblems
        var byLocale: [CatalogLocale: (file: File, resources: [String: Resource])] = [:]
        for file in files where file.locale != .english {
            byLocale[file.locale] = (file, Dictionary(file.resources.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }))
        }
        var units: [PrintfCatalog.Unit] = []
        let names = Set(english.resources.map(\.name))
        for resource in english.resources {
            let split = everyValuesFile ? SelectCase.parse(androidName: resource.name, among: names) : SelectCase.parse(androidName: resource.name)
            var comment = EntryComment(text: resource.comment)
            if comment.legend == nil { comment.legend = Self.inferredLegend(resource) }
            let legend = comment.legend ?? ArgumentLegend(entries: [])
            var messages: [CatalogLocale: PrintfMessage] = [:]
            if !readingMarkup, !resource.markup.isEmpty {
                problems.append(.init(key: resource.name, reason: "styling tags (<\(resource.markup[0])>) are not imported: lookd's catalogs hold no markup",
                                      file: resource.file ?? english.path, position: resource.position))
                continue
            }
            do {
                messages[.english] = try Self.message(resource, legend: legend, locale: .english)
            } catch let error as ConversionError {
                problems += error.problems.map { $0.placed(file: resource.file ?? english.path, position: resource.position) }
                continue
            } catch { continue }
            for (locale, translated) in byLocale {
                guard let translation = translated.resources[resource.name] else { continue }
                if translation.markup != resource.markup {
                    let (expected, found) = (resource.markup.map { "<\($0)>" }, translation.markup.map { "<\($0)>" })
                    problems.append(.init(key: resource.name, locale: locale.identifier,
                                          reason: "styling tags differ from the source's: \(found.isEmpty ? "none" : found.joined(separator: " ")) where \(resource.file ?? english.path) has \(expected.isEmpty ? "none" : expected.joined(separator: " "))",
                                          kind: readingMarkup ? .markup : .unsupported, file: translation.file ?? translated.file.path, position: translation.position))
                    if !readingMarkup { continue }
                }
                let resource = translation
                do {
                    messages[locale] = try Self.message(resource, legend: legend, locale: locale)
                } catch let error as ConversionError {
                    problems += error.problems.map { $0.placed(file: resource.file ?? translated.file.path, position: resource.position) }
                } catch {}
            }
            if comment.textAroundPlural {
                messages = messages.mapValues(\.textMovedOutOfPlural)
                comment.textAroundPlural = false
            }
            units.append(PrintfCatalog.Unit(key: split?.name ?? resource.name, selectCase: split?.selectCase, comment: comment, messages: messages))
        }
        for file in files where file.locale != .english {
            for resource in file.resources where !names.contains(resource.name) {
                problems.append(.init(key: resource.name, locale: file.locale.identifier, reason: "not in \(english.path)", kind: .unknownKey,
                                      file: resource.file ?? file.path, position: resource.position))
            }
        }
        return (PrintfCatalog(units: units), problems)
    }

    static func message(_ resource: Resource, legend: ArgumentLegend, locale: CatalogLocale) throws -> PrintfMessage {
        let dialect = PrintfDialect.android
        guard let items = resource.items else {
            guard resource.formatted else { return PrintfMessage(template: resource.text.isEmpty ? [] : [.text(resource.text)], plurals: []) }
            return PrintfMessage(template: try dialect.parse(resource.text, legend: legend, countArgument: nil, key: resource.name, locale: locale.identifier), plurals: [])
        }
        guard let argument = legend.entries.firstIndex(where: { $0.type == "plural" }).map({ $0 + 1 }) else {
            throw ConversionError(key: resource.name, locale: locale.identifier, reason: "<plurals> whose source message has no plural argument")
        }
        let variants = try items.map { item in
            guard let category = PluralCategory(rawValue: item.quantity) else {
                throw ConversionError(key: resource.name, locale: locale.identifier, reason: "quantity '\(item.quantity)' is not a plural category")
            }
            return PrintfMessage.Variant(category: category, pieces: try dialect.parse(item.text, legend: legend, countArgument: argument, key: resource.name, locale: locale.identifier))
        }
        return PrintfMessage(template: [.plural(argument)], plurals: [PrintfMessage.Plural(argument: argument, variants: variants.sorted { $0.category < $1.category })])
    }

    /// For files lookd did not write: `arg1`, `arg2`, … typed by the English text (`%d` integer, else text); a
    /// `<plurals>` counts with its first integer argument, or with an extra one when it shows none.
    static func inferredLegend(_ resource: Resource) -> ArgumentLegend? {
        guard resource.formatted else { return nil }
        let texts = resource.items?.map(\.text) ?? [resource.text]
        var integers: [Int: Bool] = [:]
        var floats: Set<Int> = []
        for text in texts {
            var sequential = 1
            PrintfSpecifierScan.forEach(in: text, sequential: &sequential) { number, specifier, _ in
                let category = specifier.category
                integers[number] = category == .integer
                if category == .float { floats.insert(number) }
            }
        }
        var count = integers.keys.max() ?? 0
        var pluralArgument = resource.items == nil ? nil : integers.filter(\.value).keys.min()
        if resource.items != nil, pluralArgument == nil {
            count += 1
            pluralArgument = count
        }
        guard count > 0 else { return nil }
        return ArgumentLegend(entries: (1...count).map { number in
            if number == pluralArgument { return ArgumentLegend.Entry(name: "arg\(number)", type: "plural", style: nil) }
            if floats.contains(number) { return ArgumentLegend.Entry(name: "arg\(number)", type: "number", style: nil) }
            return integers[number] == true ? ArgumentLegend.Entry(name: "arg\(number)", type: "number", style: "integer")
                : ArgumentLegend.Entry(name: "arg\(number)", type: nil, style: nil)
        })
    }
}
