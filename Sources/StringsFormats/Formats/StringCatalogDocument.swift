import StableJSON
import Strings

/// A parsed `.xcstrings` file: each string's key, comment and localizations with their states and positions —
/// what import converts and lint checks. Built by `init(bytes:)`; a value type.
public struct StringCatalogDocument: Sendable {
    /// One localization of one string.
    public struct Localization: Sendable {
        public let locale: String
        /// `translated`, `new`, `needs_review`, `stale`, … (of the string unit, or the first variant's).
        public let state: String?
        public let position: FilePosition
        let tree: JSONDocument
    }

    /// One string of the catalog.
    public struct Entry: Sendable {
        public let key: String
        public let comment: String?
        public let position: FilePosition
        public let localizations: [Localization]
    }

    public let sourceLanguage: String
    public let entries: [Entry]

    /// Parses the JSON and the catalog's shape. Throws `JSONReadError` (StableJSON) or `ConversionError`.
    /// `splittingVariations`: a string whose localizations vary by device or width (`variations.device.iphone`,
    /// `variations.width.…`) becomes one entry per variation, keyed `KEY (device: iphone)`, each localization
    /// giving that variation (or its only text when it does not vary) — how a linter checks every variation. Off
    /// (import), such a string is refused where it is converted, since lookd's catalogs hold plural variations only.
    public init(bytes: [UInt8], splittingVariations: Bool = false) throws {
        let tree = try JSONReader.readDocument(bytes, options: .formatFile)
        guard let language = tree["sourceLanguage"]?.stringValue else {
            throw ConversionError(key: nil, reason: "not a String Catalog: no \"sourceLanguage\"")
        }
        sourceLanguage = language
        guard let strings = tree["strings"]?.members else { throw ConversionError(key: nil, reason: "not a String Catalog: no \"strings\" object") }
        entries = strings.compactMap { member -> [Entry]? in
            // Strings marked not to translate are not localizations (Xcode: "Don't Translate").
            if member.value["shouldTranslate"]?.boolValue == false { return nil }
            var localizations = (member.value["localizations"]?.members ?? []).map { localization in
                let state = localization.value["stringUnit"]?["state"]?.stringValue
                    ?? localization.value["variations"]?.members?.first?.value.members?.first?.value["stringUnit"]?["state"]?.stringValue
                return Localization(locale: localization.key, state: state, position: FilePosition(localization.value.position), tree: localization.value)
            }
            // Xcode's extracted strings often have no source localization: the key is the source text.
            if !localizations.contains(where: { $0.locale == language }) {
                let place = member.value.position
                let unit = JSONDocument(.object([.init("state", JSONDocument(.string("translated"), position: place)),
                                                 .init("value", JSONDocument(.string(member.key), position: place))]),
                                        position: place)
                localizations.insert(Localization(locale: language, state: "translated", position: FilePosition(place),
                                                  tree: JSONDocument(.object([.init("stringUnit", unit)]), position: place)), at: 0)
            }
            let entry = Entry(key: member.key, comment: member.value["comment"]?.stringValue, position: FilePosition(member.value.position), localizations: localizations)
            return splittingVariations ? Self.splitByVariation(entry) : [entry]
        }.flatMap { $0 }
    }

    /// `entry` as one entry per device or width variation (`KEY (device: iphone)`); itself when nothing varies so.
    /// A variation's text is read with the localization's substitutions (they sit beside `variations`, at its root).
    static func splitByVariation(_ entry: Entry) -> [Entry] {
        var dimension: String?
        var cases: [String] = []
        for localization in entry.localizations {
            guard let variations = localization.tree["variations"]?.members, variations.count == 1, variations[0].key != "plural",
                  let members = variations[0].value.members else { continue }
            dimension = dimension ?? variations[0].key
            guard variations[0].key == dimension else { continue }
            for member in members where !cases.contains(member.key) { cases.append(member.key) }
        }
        guard let dimension else { return [entry] }
        return cases.map { name in
            let localizations = entry.localizations.compactMap { localization -> Localization? in
                guard let variations = localization.tree["variations"], let byKind = variations[dimension] else { return localization }
                guard var tree = byKind[name] else { return nil }
                let state = tree["stringUnit"]?["state"]?.stringValue ?? localization.state
                // Substitutions sit beside the variations, at the localization's root, and every variation's text
                // refers to them (`%#@COUNT@`; Xcode exports them once, `KEY|==|substitutions.COUNT.plural.one`).
                if let substitutions = localization.tree["substitutions"], tree["substitutions"] == nil, case .object(let members) = tree.value {
                    tree = JSONDocument(.object(members + [.init("substitutions", substitutions)]), position: tree.position)
                }
                return Localization(locale: localization.locale, state: state, position: FilePosition(tree.position), tree: tree)
            }
            return Entry(key: "\(entry.key) (\(dimension): \(name))", comment: entry.comment, position: entry.position, localizations: localizations)
        }
    }

    /// The catalog as `PrintfCatalog` units. The source language must be `en`; each localization's tag must be
    /// well-formed BCP 47 (any locale: `en-GB`, `eu`, `nl-BE`, not only lookd's 50). Arguments are named by the comment's legend, else `arg1`,
    /// `arg2`, … from the English text. Throws one `ConversionError` with every problem.
    public func catalog() throws -> PrintfCatalog {
        let (catalog, problems) = catalogSkippingProblems()
        if !problems.isEmpty { throw ConversionError(problems) }
        return catalog
    }

    /// `catalog()` that leaves out each localization (or string) it cannot read and returns those problems,
    /// placed at the localization — what a linter needs to go on.
    public func catalogSkippingProblems() -> (catalog: PrintfCatalog, problems: [ConversionError.Problem]) {
        var problems: [ConversionError.Problem] = []
        guard sourceLanguage == "en" else {
            return (PrintfCatalog(units: []), [.init(key: nil, reason: "sourceLanguage is '\(sourceLanguage)'; lookd's source is en", position: .start)])
        }
        var units: [PrintfCatalog.Unit] = []
        for entry in entries {
            let split = SelectCase.parse(appleKey: entry.key)
            var comment = EntryComment(text: entry.comment)
            let inferred = comment.legend == nil
            if inferred, let english = entry.localizations.first(where: { $0.locale == "en" }) {
                comment.legend = Self.inferredLegend(english.tree, all: entry.localizations.map(\.tree), key: entry.key)
            }
            let legend = comment.legend ?? ArgumentLegend(entries: [])
            var messages: [CatalogLocale: PrintfMessage] = [:]
            for localization in entry.localizations {
                guard let locale = CatalogLocale(tag: localization.locale) else {
                    problems.append(.init(key: entry.key, locale: localization.locale, reason: "'\(localization.locale)' is not a well-formed BCP 47 language tag",
                                          position: localization.position))
                    continue
                }
                // A pseudo-locale is generated from English, never a catalog: an export with them reads back without them.
                if locale.isPseudo { continue }
                do {
                    messages[locale] = try Self.message(localization.tree, legend: legend, key: entry.key, locale: localization.locale)
                } catch let error as ConversionError {
                    problems += error.problems.map { $0.placed(file: nil, position: localization.position) }
                } catch {}
            }
            if inferred { messages = messages.mapValues { Self.varyingByPlural($0, legend: legend) } }
            units.append(PrintfCatalog.Unit(key: split?.key ?? entry.key, selectCase: split?.selectCase, comment: comment, messages: messages))
        }
        return (PrintfCatalog(units: units), problems)
    }

    private static func unitValue(_ tree: JSONDocument?, key: String, locale: String) throws -> String {
        guard let value = tree?["stringUnit"]?["value"]?.stringValue else {
            throw ConversionError(key: key, locale: locale, reason: "expected a stringUnit with a string value")
        }
        return value
    }

    private static func variants(_ tree: JSONDocument, legend: ArgumentLegend, countArgument: Int, key: String, locale: String) throws -> [PrintfMessage.Variant] {
        guard let variations = tree.members else { throw ConversionError(key: key, locale: locale, reason: "variations must be an object") }
        guard variations.count == 1, variations[0].key == "plural", let plural = variations[0].value.members else {
            let kinds = variations.map(\.key).filter { $0 != "plural" }
            throw ConversionError(key: key, locale: locale, reason: "\(kinds.joined(separator: ", ")) variations are not supported (lookd has plural variations only)", kind: .unsupported)
        }
        return try plural.map { member in
            guard let category = PluralCategory(rawValue: member.key) else {
                throw ConversionError(key: key, locale: locale, reason: "'\(member.key)' is not a plural category")
            }
            let text = try unitValue(member.value, key: key, locale: locale)
            return PrintfMessage.Variant(category: category, pieces: try PrintfDialect.apple.parse(text, legend: legend, countArgument: countArgument, key: key, locale: locale))
        }.sorted { $0.category < $1.category }
    }

    static func message(_ tree: JSONDocument, legend: ArgumentLegend, key: String, locale: String) throws -> PrintfMessage {
        if let variations = tree["variations"] {
            guard legend.entries.count == 1 else {
                throw ConversionError(key: key, locale: locale, reason: "plural variations on a string with \(legend.entries.count) arguments (use substitutions)")
            }
            let plural = PrintfMessage.Plural(argument: 1, variants: try variants(variations, legend: legend, countArgument: 1, key: key, locale: locale))
            return PrintfMessage(template: [.plural(1)], plurals: [plural])
        }
        let template = try unitValue(tree, key: key, locale: locale)
        var slots: [String: Int] = [:]
        var plurals: [PrintfMessage.Plural] = []
        for substitution in tree["substitutions"]?.members ?? [] {
            guard let number = substitution.value["argNum"]?.intValue ?? Self.tokenArgument(substitution.key, in: template),
                  number >= 1, number <= legend.entries.count else {
                throw ConversionError(key: key, locale: locale, reason: "substitution '\(substitution.key)' needs an argNum within the source's arguments")
            }
            guard let variations = substitution.value["variations"] else {
                throw ConversionError(key: key, locale: locale, reason: "substitution '\(substitution.key)' has no variations")
            }
            slots[substitution.key] = number
            plurals.append(PrintfMessage.Plural(argument: number, variants: try variants(variations, legend: legend, countArgument: number, key: key, locale: locale)))
        }
        let pieces = try PrintfDialect.apple.parse(template, legend: legend, countArgument: nil, slots: slots, key: key, locale: locale)
        return PrintfMessage(template: pieces, plurals: plurals)
    }

    /// The argument a `%#@name@` token stands for when the substitution has no `argNum`: its number
    /// (`%2$#@name@`), else its place among the template's specifiers.
    static func tokenArgument(_ name: String, in template: String) -> Int? {
        var rest = Substring(template)
        var place = 0
        while let percent = rest.firstIndex(of: "%") {
            rest = rest[rest.index(after: percent)...]
            if rest.hasPrefix("%") { rest = rest.dropFirst(); continue }
            place += 1
            let digits = rest.prefix { $0.isNumber }
            let afterDigits = rest.dropFirst(digits.count)
            let explicit = !digits.isEmpty && afterDigits.hasPrefix("$")
            let body = explicit ? afterDigits.dropFirst() : rest
            if body.hasPrefix("#@\(name)@") { return explicit ? Int(digits) : place }
        }
        return nil
    }

    /// A text that shows a count plainly (`%lld mates`) where other localizations vary by plural on it: the
    /// same text as a plural with only `other`, so every locale has one shape (and the missing categories are
    /// reported: "1 mates" reads wrongly).
    static func varyingByPlural(_ message: PrintfMessage, legend: ArgumentLegend) -> PrintfMessage {
        guard message.plurals.isEmpty,
              let number = legend.entries.firstIndex(where: { $0.type == "plural" }).map({ $0 + 1 }),
              message.template.contains(.argument(number)) else { return message }
        let pieces = message.template.map { $0 == .argument(number) ? PrintfMessage.Piece.count : $0 }
        return PrintfMessage(template: [.plural(number)], plurals: [.init(argument: number, variants: [.init(category: .other, pieces: pieces)])])
    }

    /// Arguments `arg1`, `arg2`, … typed by the English text's specifiers, for catalogs lookd did not write;
    /// an argument any localization varies by plural on (`all`) is a plural.
    /// The key's own specifiers count first: Xcode extracts `"followers %lld %@"` from
    /// `"followers \(count) \(name)"`, and every localization may use both arguments, whatever English shows.
    static func inferredLegend(_ tree: JSONDocument, all: [JSONDocument], key: String = "") -> ArgumentLegend {
        var texts: [String] = [key]
        var plurals: [Int: String] = [:]
        if let value = tree["stringUnit"]?["value"]?.stringValue { texts.append(value) }
        for localization in all {
            for substitution in localization["substitutions"]?.members ?? [] {
                if let number = substitution.value["argNum"]?.intValue ?? tokenArgument(substitution.key, in: localization["stringUnit"]?["value"]?.stringValue ?? "") {
                    plurals[number] = substitution.key
                }
            }
            if localization["variations"]?["plural"] != nil { plurals[1] = plurals[1] ?? "arg1" }
        }
        return inferredLegend(texts: texts, plurals: plurals)
    }

    /// Arguments `arg1`, `arg2`, … typed by the specifiers of `texts` (`%@` text, `%lld` integer, `%.1f` a
    /// number); `plurals`: argument numbers that are plurals, with their names.
    static func inferredLegend(texts: [String], plurals: [Int: String] = [:]) -> ArgumentLegend {
        // The entries are written as the specifiers are read (the last specifier of a number decides), gaps as text: no
        // table of types between, made and freed for every text (1.0 of the 196 million instructions of `lookd lint` on
        // one `lint-xliff` bench file, callgrind, 3 Dec 2026).
        var entries: [ArgumentLegend.Entry] = []
        for text in texts {
            var sequential = 1
            PrintfSpecifierScan.forEach(in: text, sequential: &sequential) { number, specifier, isSubstitution in
                if isSubstitution || number < 1 { return }
                while entries.count < number { entries.append(inferredEntry(number: entries.count + 1, category: nil)) }
                entries[number - 1] = inferredEntry(number: number, category: specifier.category)
            }
        }
        let count = max(entries.count, plurals.keys.max() ?? 0)
        while entries.count < count { entries.append(inferredEntry(number: entries.count + 1, category: nil)) }
        for (number, name) in plurals where number >= 1 {
            entries[number - 1] = ArgumentLegend.Entry(name: name, type: "plural", style: nil)
        }
        return ArgumentLegend(entries: entries)
    }

    /// Argument `number` as the specifier `category` passes it (nil: no specifier names it): `%lld` an integer, `%f`
    /// a number, anything else text.
    private static func inferredEntry(number: Int, category: PrintfSpecifier.Category?) -> ArgumentLegend.Entry {
        let name = number <= argumentNames.count ? argumentNames[number - 1] : "arg\(number)"
        switch category {
        case .float: return ArgumentLegend.Entry(name: name, type: "number", style: nil)
        case .integer: return ArgumentLegend.Entry(name: name, type: "number", style: "integer")
        default: return ArgumentLegend.Entry(name: name, type: nil, style: nil)
        }
    }

    /// `arg1` … `arg9` as literals: writing "arg\(number)" for every argument was 1.1 of the 221 million
    /// instructions of `lookd lint` on one `lint-xliff` bench file (callgrind, 3 Dec 2026).
    private static let argumentNames = ["arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7", "arg8", "arg9"]
}
