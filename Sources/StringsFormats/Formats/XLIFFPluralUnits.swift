import Strings

/// The units of one plural in an Xcode XLIFF export, read back as one plural message. Xcode writes a String
/// Catalog plural as one unit per category (`KEY|==|plural.one`, `KEY|==|plural.other`), a String Catalog
/// substitution as the string's unit (`KEY`, e.g. `This %1$@ has %2$#@strings@.`) and one unit per category
/// (`KEY|==|substitutions.strings.plural.one`), and a `.stringsdict` plural as its format key's unit
/// (`/KEY:dict/NSStringLocalizedFormatKey:dict/:string`, e.g. `%#@files@`; left out when it is just that) and one
/// unit per variable and category (`/KEY:dict/files:dict/one:dict/:string`). A unit's source is English's text for
/// its category; for a category English does not have, Xcode gives English's `other`. A value type.
struct XLIFFPluralUnits {
    /// What one unit id says.
    enum Part: Equatable {
        /// A String Catalog plural's category (`KEY|==|plural.CATEGORY`).
        case catalogCategory(String)
        /// A `.stringsdict` format key (`/KEY:dict/NSStringLocalizedFormatKey:dict/:string`), or the string a String
        /// Catalog substitution is in (the unit `KEY`: see `XLIFFDocument`).
        case format
        /// A `.stringsdict` variable's or a String Catalog substitution's category
        /// (`/KEY:dict/VARIABLE:dict/CATEGORY:dict/:string`, `KEY|==|substitutions.VARIABLE.plural.CATEGORY`).
        case variableCategory(variable: String, category: String)
    }

    /// The plural's key and the part a unit id is; nil for a unit that is no plural's (device variations
    /// `KEY|==|device.iphone` stay strings of their own).
    static func parse(id: String) -> (key: String, part: Part)? {
        // Most ids are neither: told by one byte, before any search (every unit's id is looked at).
        guard id.utf8.first == UInt8(ascii: "/") || id.containsUTF8(UInt8(ascii: "|")) else { return nil }
        if let separator = id.range(of: "|==|", options: .backwards) {
            let key = String(id[..<separator.lowerBound])
            let variation = id[separator.upperBound...]
            if variation.hasPrefix("plural."), variation.count > 7 {
                return (key, .catalogCategory(String(variation.dropFirst(7))))
            }
            guard variation.hasPrefix("substitutions."), let plural = variation.range(of: ".plural.", options: .backwards) else { return nil }
            let variable = variation[variation.index(variation.startIndex, offsetBy: 14)..<plural.lowerBound]
            guard !variable.isEmpty, plural.upperBound < variation.endIndex else { return nil }
            return (key, .variableCategory(variable: String(variable), category: String(variation[plural.upperBound...])))
        }
        guard id.hasPrefix("/"), id.hasSuffix(":dict/:string") else { return nil }
        let components = id.dropFirst().dropLast(":dict/:string".count).components(separatedBy: ":dict/")
        switch components.count {
        case 2 where components[1] == "NSStringLocalizedFormatKey": return (components[0], .format)
        case 3: return (components[0], .variableCategory(variable: components[1], category: components[2]))
        default: return nil
        }
    }

    let key: String
    /// The units in file order with what each is.
    var units: [(unit: XLIFFDocument.Unit, part: Part)] = []

    private typealias Variable = (name: String, number: Int, units: [(category: PluralCategory, unit: XLIFFDocument.Unit)])

    /// The plural as a `PrintfCatalog` unit with English (from the sources) and `locale` (from what `delivered`
    /// gives of the targets), and what could not be read: a category that is not a CLDR plural category, a String
    /// Catalog plural on a string of several arguments, a `.stringsdict` plural without its format key or with a
    /// variable the format key does not name, and what `PrintfDialect.parse` refuses. A locale left out by a
    /// problem is not in the unit (English is kept when only the translation is wrong).
    func unit(locale: CatalogLocale, delivered: (XLIFFDocument.Unit) -> String?) -> (unit: PrintfCatalog.Unit, problems: [ConversionError.Problem]) {
        var comment = EntryComment(text: units.first?.unit.note)
        comment.maxLength = comment.maxLength ?? units.first?.unit.maxWidth
        var messages: [CatalogLocale: PrintfMessage] = [:]
        do {
            let (template, variables) = try structure()
            var plurals: [Int: String] = [:]
            for variable in variables { plurals[variable.number] = template == nil ? "arg1" : variable.name }
            let texts = [key] + (template.map { [$0.source] } ?? []) + variables.flatMap { $0.units.map(\.unit.source) }
            let legend = comment.legend ?? StringCatalogDocument.inferredLegend(texts: texts, plurals: plurals)
            if template == nil, legend.entries.count != 1 {
                throw ConversionError(key: key, reason: "plural variations on a string with \(legend.entries.count) arguments (use substitutions)", kind: .unsupported)
            }
            comment.legend = legend
            // English: each of its categories from its unit, else from `other`'s (all Xcode gives when the target
            // locale lacks the category).
            let english = PluralRules.forLocale("en")?.categories ?? [.one, .other]
            let englishVariables = variables.map { variable -> Variable in
                let other = variable.units.first { $0.category == .other }?.unit
                let units = english.compactMap { category in (variable.units.first { $0.category == category }?.unit ?? other).map { (category, $0) } }
                return (variable.name, variable.number, units)
            }
            messages[.english] = try message(englishVariables, template: template?.source, legend: legend, locale: "en") { $0.source }
            messages[locale] = try message(variables, template: template.map { $0.target ?? $0.source }, legend: legend, locale: locale.identifier, text: delivered)
        } catch let error as ConversionError {
            let position = units.first?.unit.position
            return (PrintfCatalog.Unit(key: key, selectCase: nil, comment: comment, messages: messages), error.problems.map { $0.placed(file: nil, position: position) })
        } catch {}
        return (PrintfCatalog.Unit(key: key, selectCase: nil, comment: comment, messages: messages), [])
    }

    /// The template — the `.stringsdict` format key or the substitution's string, source and target — (nil for a
    /// String Catalog plural variation) and the variables with their numbers: a plural variation counts with
    /// argument 1, a variable with the argument its `%#@name@` token stands for in the template.
    private func structure() throws -> (template: (source: String, target: String?)?, variables: [Variable]) {
        var formatUnit: XLIFFDocument.Unit?
        var variables: [Variable] = []
        for (unit, part) in units {
            let variable: String, name: String
            switch part {
            case .format:
                formatUnit = unit
                continue
            case .catalogCategory(let category): (variable, name) = ("arg1", category)
            case .variableCategory(let named, let category): (variable, name) = (named, category)
            }
            guard let category = PluralCategory(rawValue: name) else {
                throw ConversionError(key: key, reason: "'\(name)' is not a plural category (zero, one, two, few, many, other)", kind: .syntax)
            }
            if let index = variables.firstIndex(where: { $0.name == variable }) {
                variables[index].units.append((category, unit))
            } else {
                variables.append((variable, 1, [(category, unit)]))
            }
        }
        // Only a String Catalog plural variation is the plural alone; the rest fill a template.
        let isPluralAlone = units.allSatisfy { if case .catalogCategory = $0.part { true } else { false } }
        guard !isPluralAlone else { return (nil, variables) }
        // Xcode leaves the format key out when it is the variable alone (`%#@name@`).
        guard let template = formatUnit.map({ ($0.source, $0.target) }) ?? (variables.count == 1 ? ("%#@\(variables[0].name)@", nil) : nil) else {
            throw ConversionError(key: key, reason: "a .stringsdict plural of \(variables.count) variables without its NSStringLocalizedFormatKey unit", kind: .unsupported)
        }
        for index in variables.indices {
            guard let number = StringCatalogDocument.tokenArgument(variables[index].name, in: template.0) else {
                throw ConversionError(key: key, reason: "variable '\(variables[index].name)' is not in the format key '\(template.0)'", kind: .argument)
            }
            variables[index].number = number
        }
        return (template, variables)
    }

    /// One locale's message: the template (`.stringsdict`) or the plural alone, each variable's variants from
    /// `text`; nil when no variant has a text.
    private func message(_ variables: [Variable], template: String?, legend: ArgumentLegend, locale: String,
                         text: (XLIFFDocument.Unit) -> String?) throws -> PrintfMessage? {
        var plurals: [PrintfMessage.Plural] = []
        for variable in variables {
            var variants: [PrintfMessage.Variant] = []
            for (category, unit) in variable.units where !variants.contains(where: { $0.category == category }) {
                guard let value = text(unit) else { continue }
                variants.append(.init(category: category, pieces: try PrintfDialect.apple.parse(value, legend: legend, countArgument: variable.number, key: key, locale: locale)))
            }
            if !variants.isEmpty { plurals.append(.init(argument: variable.number, variants: variants.sorted { $0.category < $1.category })) }
        }
        guard !plurals.isEmpty else { return nil }
        guard let template else { return PrintfMessage(template: [.plural(1)], plurals: plurals) }
        let slots = Dictionary(variables.map { ($0.name, $0.number) }, uniquingKeysWith: { first, _ in first })
        return PrintfMessage(template: try PrintfDialect.apple.parse(template, legend: legend, countArgument: nil, slots: slots, key: key, locale: locale), plurals: plurals)
    }
}
