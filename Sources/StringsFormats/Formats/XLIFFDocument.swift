import Strings

/// A parsed XLIFF 1.2 file: its target locale and units with states and positions — what import merges and
/// lint checks. Xcode's exports (`.xcloc/Localized Contents/TAG.xliff`) hold one `<file>` per source file and
/// printf placeholders; lookd's own hold one `<file>` and ICU MessageFormat. A value type.
public struct XLIFFDocument: Sendable {
    public struct Unit: Sendable {
        /// The unit's id, keyed by its `<file>`'s `original` when an earlier file has its message (`XLIFFMessageScope`).
        public internal(set) var id: String
        public let source: String
        public let target: String?
        /// The target's `state` (`translated`, `needs-translation`, `needs-review-translation`, `new`, …).
        public let state: String?
        public let note: String?
        public let maxWidth: Int?
        public let position: FilePosition

        /// The key of the plural the unit is part of in an Xcode export (`KEY|==|plural.one`, a `.stringsdict` path
        /// `/KEY:dict/…`); nil for a string of its own.
        public var pluralKey: String? { XLIFFPluralUnits.parse(id: id)?.key }
    }

    /// One `<file>` of the document (Xcode writes one per source file: `Localizable.xcstrings`, `InfoPlist.strings`, …).
    public struct File: Sendable {
        /// The `original` attribute (lookd writes `en.json`).
        public let original: String?
        /// True when the units' placeholders are printf's (`%@`, `%1$lld`): Xcode's exports (tool
        /// `com.apple.dt.xcode`) and any file whose original is not a lookd catalog. False: ICU MessageFormat.
        public let isPrintf: Bool
        public let units: [Unit]
    }

    public let targetLanguage: String
    /// Every file's units in document order; a message (a string, a plural's units) whose key an earlier file has is
    /// keyed `original|key` (`XLIFFMessageScope`).
    public let units: [Unit]
    public let files: [File]

    /// Throws `ConversionError` when the file is not XLIFF 1.2 with at least one `<file>`, every one with source
    /// language en and the same target language.
    public init(bytes: [UInt8]) throws {
        // Read from the parser's events without building an `XMLTree` (see `XMLEventIndex`).
        (targetLanguage, files) = try XMLTree.withEvents(bytes) { events in
            let index = XMLEventIndex(events)
            guard let root = index.root else { return nil }
            return try Self.read(index, root: root)
        }
        // Sized once: `flatMap` grows the array file by file (0.4 of the 206 million instructions of `lookd lint` on one
        // `lint-xliff` bench file of 25 files, callgrind, 3 Dec 2026).
        var units: [Unit] = []
        units.reserveCapacity(files.reduce(0) { $0 + $1.units.count })
        for file in files { units += file.units }
        self.units = units
    }

    private static func read(_ index: XMLEventIndex, root: Int) throws -> (targetLanguage: String, files: [File]) {
        guard index.isNamed(root, "xliff"), index.attribute(root, "version") == "1.2" else {
            throw ConversionError(key: nil, reason: "not an XLIFF 1.2 document (root <\(index.name(root))> version \(index.attribute(root, "version") ?? "none"))")
        }
        let fileElements = index.children(root, named: "file")
        guard !fileElements.isEmpty else { throw ConversionError(key: nil, reason: "no <file> in the XLIFF") }
        var target: String?
        var files: [File] = []
        // Each file's `<trans-unit>`s, found first: the keys `used` takes and the document's units are sized by them.
        let unitElements = fileElements.map { file in index.children(file, named: "body").flatMap { index.children($0, named: "trans-unit") } }
        let unitCount = unitElements.reduce(0) { $0 + $1.count }
        var used = XLIFFMessageScope.Used(keyCapacity: unitCount)
        for (file, elements) in zip(fileElements, unitElements) {
            let line = index.elements[file].position.line
            guard index.attribute(file, "source-language") == "en" else { throw ConversionError(key: nil, reason: "source-language must be en (line \(line))") }
            guard let language = index.attribute(file, "target-language") else { throw ConversionError(key: nil, reason: "<file> has no target-language (line \(line))") }
            if let target, target != language {
                throw ConversionError(key: nil, reason: "<file> on line \(line) targets \(language), an earlier one \(target): one locale per XLIFF")
            }
            target = language
            let original = index.attribute(file, "original")
            let tool = index.firstChild(file, named: "header").flatMap { index.firstChild($0, named: "tool") }.flatMap { index.attribute($0, "tool-id") }
            let isPrintf = tool == "com.apple.dt.xcode" || !(original ?? "en.json").hasSuffix(".json")
            var units: [Unit] = []
            units.reserveCapacity(elements.count)
            for element in elements {
                let id = index.attribute(element, "id")
                let sourceElement = index.firstChild(element, named: "source")
                // Xcode exports an empty string (a `Text("")`) as a unit with an empty id and source: nothing to translate.
                if id == "", (sourceElement.map(index.text) ?? "") == "" { continue }
                guard let id else { throw ConversionError(key: nil, reason: "<trans-unit> without an id at line \(index.elements[element].position.line)") }
                guard let sourceElement else { throw ConversionError(key: id, reason: "<trans-unit> without <source>") }
                let targetElement = index.firstChild(element, named: "target")
                units.append(Unit(id: id, source: index.text(sourceElement), target: targetElement.map(index.text),
                                  state: targetElement.flatMap { index.attribute($0, "state") },
                                  note: index.firstChild(element, named: "note").map(index.text),
                                  maxWidth: index.attribute(element, "maxwidth").flatMap { Int($0) },
                                  position: index.elements[element].position))
            }
            for (offset, id) in XLIFFMessageScope.scoped(units.map(\.id), original: original, used: &used).enumerated() { units[offset].id = id }
            files.append(File(original: original, isPrintf: isPrintf, units: units))
        }
        return (target ?? "", files)
    }

    /// States whose target is not a translation yet; such targets are not imported.
    public static let untranslatedStates: Set<String> = Set(untranslatedStateNames)
    private static let untranslatedStateNames = ["new", "needs-translation"]

    /// Whether `state` is one of `untranslatedStates`, told by comparing it with each: hashing every unit's state to
    /// look it up in the set was 1.2 of the 206 million instructions of `lookd lint` on one `lint-xliff` bench file
    /// (callgrind, 3 Dec 2026).
    static func isUntranslated(_ state: String) -> Bool { untranslatedStateNames.contains(state) }

    /// The source (from the units' sources, notes and maxwidths) and the target locale's translations (targets
    /// that are present, non-empty and not in an untranslated state). Throws `ConversionError` for a target
    /// language that is not a well-formed tag, English or a pseudo-locale.
    public func content() throws -> CatalogContent {
        guard let locale = CatalogLocale(tag: targetLanguage) else {
            throw ConversionError(key: nil, reason: "target-language '\(targetLanguage)' is not a well-formed BCP 47 language tag")
        }
        if locale.isPseudo {
            throw ConversionError(key: nil, reason: "target-language '\(targetLanguage)' is a pseudo-locale, generated from English at load time: there is nothing to import")
        }
        guard locale != .english else {
            throw ConversionError(key: nil, reason: "target-language is en, the source language: there is no translation to import")
        }
        let (content, problems) = contentSkippingProblems(locale: locale)
        if !problems.isEmpty { throw ConversionError(problems) }
        return content
    }

    /// `content()` that leaves out each printf unit whose source or target cannot be read (a placeholder the
    /// source does not have, or of another type) and returns those problems — what a linter needs to go on.
    public func contentSkippingProblems() -> (content: CatalogContent, problems: [ConversionError.Problem]) {
        guard let locale = CatalogLocale(tag: targetLanguage), !locale.isPseudo, locale != .english else {
            return (CatalogContent(source: []), [.init(key: nil, reason: "target-language '\(targetLanguage)' is not a translated locale")])
        }
        return contentSkippingProblems(locale: locale)
    }

    /// The key a device or width variation's unit id varies (`KEY|==|device.iphone` → `KEY`); nil for other ids.
    private static func variationBase(_ id: String) -> String? {
        // Most ids have no `|`: told by a byte search before Foundation's `range(of:)`, which bridges the id to
        // UTF-16 and was 79 of the 583 million instructions of `lookd lint` on one `lint-xliff` bench file
        // (callgrind, 2 Dec 2026; two calls a unit).
        guard id.containsUTF8(UInt8(ascii: "|")) else { return nil }
        guard let separator = id.range(of: "|==|", options: .backwards) else { return nil }
        let variation = id[separator.upperBound...]
        guard variation.hasPrefix("device.") || variation.hasPrefix("width.") else { return nil }
        return String(id[..<separator.lowerBound])
    }

    /// The ICU pattern of a printf unit's `text` (no plural: a unit of its own) in `locale`, the source's arguments
    /// in `legend`. Throws `PrintfDialect.parse`'s `ConversionError` (naming `key` and the locale) for what it refuses.
    ///
    /// Written as the text is read (`writer`, kept from unit to unit), parsed into pieces only when that refuses it,
    /// to report why: the pieces `parse` returns always make a pattern (every argument is in the legend).
    private static func pattern(of text: String, legend: ArgumentLegend, key: String, locale: CatalogLocale,
                                writer: inout PrintfPlainPatternWriter) throws -> String {
        if let pattern = writer.pattern(of: text, legend: legend, dialect: .apple) { return pattern }
        let pieces = try PrintfDialect.apple.parse(text, legend: legend, countArgument: nil, key: key, locale: locale.identifier)
        return try PrintfMessage(template: pieces, plurals: []).icuPattern(legend: legend, locale: locale, key: key)
    }

    /// A unit of a printf `<file>` as read: one string, or every unit of one plural (by its key).
    private enum Item {
        /// A unit of its own, by its index in its file's `units`: the unit itself in every item, copied in and out
        /// of the array and freed with it, cost 0.5 of the 221 million instructions of `lookd lint` on one
        /// `lint-xliff` bench file (callgrind, 3 Dec 2026).
        case unit(Int)
        case plural(String)
    }

    private func contentSkippingProblems(locale: CatalogLocale) -> (content: CatalogContent, problems: [ConversionError.Problem]) {
        func delivered(_ unit: Unit) -> String? {
            guard let target = unit.target, !target.isEmpty, !Self.isUntranslated(unit.state ?? "") else { return nil }
            return target
        }
        var source: [CatalogContent.SourceEntry] = []
        var translations: [CatalogContent.Translation] = []
        var problems: [ConversionError.Problem] = []
        for file in files {
            guard file.isPrintf else {
                for unit in file.units {
                    source.append(.init(key: unit.id, message: unit.source, description: unit.note, maxLength: unit.maxWidth))
                    if let target = delivered(unit) { translations.append(.init(key: unit.id, pattern: target)) }
                }
                continue
            }
            // printf placeholders (Apple's rules): read through the same mapping as String Catalogs. A plural's
            // units (`KEY|==|plural.one`, `.stringsdict` paths) are one unit, where its first one is.
            var items: [Item] = []
            var plurals: [String: XLIFFPluralUnits] = [:]
            let parts = file.units.map { XLIFFPluralUnits.parse(id: $0.id) }
            // A String Catalog substitution's string is a unit of its own id (`KEY`), the template of its plurals.
            let substituted = Set(parts.compactMap { parsed in parsed.flatMap { if case .variableCategory = $0.part { $0.key } else { nil } } })
            // A String Catalog string varying by device keeps its substitutions at the localization's root: Xcode
            // exports each device's text (`KEY|==|device.iphone`, `%#@COUNT@ on this iPhone`) and the substitution's
            // units once (`KEY|==|substitutions.COUNT.plural.one`). Each device's text is the template of a plural
            // of its own, keyed by its unit, sharing those units.
            // Without substitutions (most files) there is no such template, and the units are not gone through for
            // them: copying every unit through the filter and looking each up in the empty sets was 2.3 of the 232
            // million instructions of `lookd lint` on one `lint-xliff` bench file (callgrind, 3 Dec 2026).
            let deviceTemplates = substituted.isEmpty ? [:] : Dictionary(grouping: zip(file.units, parts).filter { unit, parsed in
                parsed == nil && Self.variationBase(unit.id).map(substituted.contains) == true
            }.map(\.0), by: { Self.variationBase($0.id)! })
            var shared: [String: [(unit: Unit, part: XLIFFPluralUnits.Part)]] = [:]
            // By index: a unit is copied only into a plural (a string's unit, most of them, is told by its id; iterating the
            // units with their parts copied every unit twice, 1.3 of the 197 million instructions of `lookd lint` on one
            // `lint-xliff` bench file, callgrind, 3 Dec 2026).
            for (index, parsed) in parts.enumerated() {
                if let parsed, deviceTemplates[parsed.key] != nil {
                    shared[parsed.key, default: []].append((file.units[index], parsed.part))
                    continue
                }
                let id = file.units[index].id
                let template = !deviceTemplates.isEmpty && Self.variationBase(id).flatMap { deviceTemplates[$0] } != nil
                let substitution = !substituted.isEmpty && substituted.contains(id)
                guard let (key, part) = parsed ?? (substitution || template ? (id, .format) : nil) else {
                    items.append(.unit(index))
                    continue
                }
                if plurals[key] == nil {
                    plurals[key] = XLIFFPluralUnits(key: key)
                    items.append(.plural(key))
                }
                plurals[key]!.units.append((file.units[index], part))
            }
            for (base, templates) in deviceTemplates {
                for template in templates { plurals[template.id]!.units += shared[base] ?? [] }
            }
            // A plural goes through `PrintfCatalog`; a single unit (most of them) is written straight to its source entry
            // and translation, without a `PrintfCatalog.Unit` and its dictionary of messages between (making,
            // copying and freeing those units was 18 of the 324 million instructions of `lookd lint` on one
            // `lint-xliff` bench file, callgrind, 2 Dec 2026). What the conversion refuses is listed after what the
            // reading refuses, in unit order, as `PrintfCatalog.contentSkippingProblems` lists it.
            var conversionProblems: [ConversionError.Problem] = []
            var writer = PrintfPlainPatternWriter()
            for item in items {
                let unit: Unit
                switch item {
                case .plural(let key):
                    let (plural, found) = plurals[key]!.unit(locale: locale, delivered: delivered)
                    problems += found
                    let (converted, refused) = PrintfCatalog(units: [plural]).contentSkippingProblems()
                    conversionProblems += refused
                    source += converted.source
                    translations += converted.translations[locale] ?? []
                    continue
                case .unit(let index): unit = file.units[index]
                }
                var comment = EntryComment(text: unit.note)
                comment.maxLength = comment.maxLength ?? unit.maxWidth
                if comment.legend == nil { comment.legend = StringCatalogDocument.inferredLegend(texts: [unit.source]) }
                let legend = comment.legend ?? ArgumentLegend(entries: [])
                let english: String
                do {
                    english = try Self.pattern(of: unit.source, legend: legend, key: unit.id, locale: .english, writer: &writer)
                } catch {
                    if let error = error as? ConversionError { problems += error.problems.map { $0.placed(file: nil, position: unit.position) } }
                    conversionProblems.append(.init(key: unit.id, reason: "no English (source) text", kind: .unknownKey))
                    continue
                }
                source.append(CatalogContent.SourceEntry(key: unit.id, message: english, description: comment.description, maxLength: comment.maxLength))
                if let text = delivered(unit) {
                    do {
                        translations.append(CatalogContent.Translation(key: unit.id, pattern: try Self.pattern(of: text, legend: legend, key: unit.id, locale: locale, writer: &writer)))
                    } catch let error as ConversionError {
                        problems += error.problems.map { $0.placed(file: nil, position: unit.position) }
                    } catch {}
                }
            }
            problems += conversionProblems
        }
        return (CatalogContent(source: source, translations: [locale: translations]), problems)
    }
}
