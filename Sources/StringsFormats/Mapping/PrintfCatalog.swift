import Strings

/// The catalogs as printf-style formats see them: one unit per string the app looks up (a select that is the
/// whole message gives one unit per case, `SelectCase`), each with its comment and every locale's
/// `PrintfMessage`. String Catalogs and Android resources write and read this; converting it back gives the
/// ICU catalogs. A value type.
public struct PrintfCatalog: Sendable, Hashable {
    /// One string the app looks up, with every locale's text.
    public struct Unit: Sendable, Hashable {
        /// The catalog key.
        public var key: String
        /// Set when the unit is one case of a whole-message select.
        public var selectCase: SelectCase?
        /// Description, maxLength and argument legend.
        public var comment: EntryComment
        /// Every locale's message, English (the source) included.
        public var messages: [CatalogLocale: PrintfMessage]

        public init(key: String, selectCase: SelectCase?, comment: EntryComment, messages: [CatalogLocale: PrintfMessage]) {
            self.key = key
            self.selectCase = selectCase
            self.comment = comment
            self.messages = messages
        }

        /// The arguments (empty when the message has none).
        public var legend: ArgumentLegend { comment.legend ?? ArgumentLegend(entries: []) }

        /// The source's plural arguments with an `=0` branch: those whose English variants include `zero`
        /// (English has no `zero` category, so its `zero` is always an `=0`).
        var exactZero: Set<Int> {
            // Most messages have no plural: no set built from an empty list (this getter took 2.8 of the 386 million
            // instructions of `lookd lint` on one `lint-xliff` bench file, 2.0 with the early return; callgrind, 2 Dec 2026).
            guard let english = messages[.english], !english.plurals.isEmpty else { return [] }
            return Set(english.plurals.filter { $0.variants.contains { $0.category == .zero } }.map(\.argument))
        }
    }

    /// In source order; the cases of one select are consecutive.
    public var units: [Unit]

    public init(units: [Unit]) { self.units = units }

    /// Converts ICU catalogs. Throws one `ConversionError` listing every key and locale that cannot be
    /// carried (see `ArgumentLegend`, `PrintfMessage`, `ZeroCaseRule`), including translations of keys the
    /// source does not have.
    public init(_ content: CatalogContent) throws {
        var byLocale: [CatalogLocale: [String: String]] = [:]
        for (locale, entries) in content.translations {
            byLocale[locale] = Dictionary(entries.map { ($0.key, $0.pattern) }, uniquingKeysWith: { first, _ in first })
        }
        let sourceKeys = Set(content.source.map(\.key))
        var problems: [ConversionError.Problem] = []
        for locale in content.locales {
            for entry in content.translations[locale] ?? [] where !sourceKeys.contains(entry.key) {
                problems.append(.init(key: entry.key, locale: locale.identifier, reason: "not in the source catalog", kind: .unknownKey))
            }
        }
        var units: [Unit] = []
        do {
            units = try collectingProblems(content.source) { entry in
                try Self.units(of: entry, translations: content.locales.compactMap { locale in byLocale[locale]?[entry.key].map { (locale, $0) } })
            }.flatMap { $0 }
        } catch let error as ConversionError {
            problems += error.problems
        }
        if !problems.isEmpty { throw ConversionError(problems) }
        self.units = units
    }

    private static func parse(_ pattern: String, key: String, locale: CatalogLocale) throws -> ICUMessage {
        do {
            return try ICUMessage(parsing: pattern)
        } catch {
            throw ConversionError(key: key, locale: locale.identifier, reason: "not a MessageFormat pattern: \(error)")
        }
    }

    private static func units(of entry: CatalogContent.SourceEntry, translations: [(CatalogLocale, String)]) throws -> [Unit] {
        let key = entry.key
        let source = try parse(entry.message, key: key, locale: .english)
        // Every locale's problem is listed, not only the first one's.
        let parsed = try collectingProblems(translations) { locale, pattern in (locale, try parse(pattern, key: key, locale: locale)) }
        guard let select = source.wholeChoice, select.kind == .select else {
            return [try unit(key: key, selectCase: nil, entry: entry, source: source, translations: parsed)]
        }
        var perCase: [String: [(CatalogLocale, ICUMessage)]] = [:]
        for (locale, message) in parsed {
            guard let translated = message.wholeChoice, translated.kind == .select, translated.name == select.name else {
                throw ConversionError(key: key, locale: locale.identifier, reason: "the source is a select on '\(select.name)', this translation is not")
            }
            for branch in translated.cases {
                guard select.cases.contains(where: { $0.key == branch.key }) else {
                    throw ConversionError(key: key, locale: locale.identifier, reason: "select case '\(branch.key)' is not in the source")
                }
                perCase[branch.key, default: []].append((locale, branch.message))
            }
        }
        return try select.cases.map { branch in
            try unit(key: key, selectCase: SelectCase(argument: select.name, value: branch.key), entry: entry,
                     source: branch.message, translations: perCase[branch.key] ?? [])
        }
    }

    private static func unit(key: String, selectCase: SelectCase?, entry: CatalogContent.SourceEntry, source: ICUMessage,
                             translations: [(CatalogLocale, ICUMessage)]) throws -> Unit {
        let legend = try ArgumentLegend(source: source, key: key)
        let exactZero = Set(source.choices.filter { $0.kind == .plural && $0.cases.contains { $0.key == "=0" } }.compactMap { legend.number(of: $0.name) })
        var messages: [CatalogLocale: PrintfMessage] = [:]
        messages[.english] = try PrintfMessage(source, legend: legend, locale: .english, sourceExactZero: exactZero, key: key)
        for (locale, message) in try collectingProblems(translations, { locale, message in
            (locale, try PrintfMessage(message, legend: legend, locale: locale, sourceExactZero: exactZero, key: key))
        }) {
            messages[locale] = message
        }
        return Unit(key: key, selectCase: selectCase,
                    comment: EntryComment(description: entry.description, maxLength: entry.maxLength, legend: legend), messages: messages)
    }

    /// Back to ICU catalogs: units of one key (select cases) are joined into one select, in unit order;
    /// translations are written in source key order. Throws `ConversionError` for a unit without English or a
    /// message that refers to an argument its legend does not have.
    public func content() throws -> CatalogContent {
        let (content, problems) = contentSkippingProblems()
        if !problems.isEmpty { throw ConversionError(problems) }
        return content
    }

    /// `content()` that leaves out what it cannot convert (a key without English, one locale's message) and
    /// returns those problems with the catalogs — what a linter needs to go on.
    public func contentSkippingProblems() -> (content: CatalogContent, problems: [ConversionError.Problem]) {
        var groups: [(key: String, units: [Unit])] = []
        for unit in units {
            if let last = groups.last, last.key == unit.key, unit.selectCase != nil {
                groups[groups.count - 1].units.append(unit)
            } else {
                groups.append((unit.key, [unit]))
            }
        }
        var content = CatalogContent(source: [])
        var problems: [ConversionError.Problem] = []
        let locales = Set(units.flatMap { $0.messages.keys }).subtracting([.english]).sorted()
        for group in groups {
            guard let first = group.units.first, group.units.allSatisfy({ $0.messages[.english] != nil }) else {
                problems.append(.init(key: group.key, reason: "no English (source) text", kind: .unknownKey))
                continue
            }
            do {
                let source = try Self.pattern(of: group.units, locale: .english)!
                content.source.append(CatalogContent.SourceEntry(key: group.key, message: source,
                                                                 description: first.comment.description, maxLength: first.comment.maxLength))
            } catch let error as ConversionError {
                problems += error.problems
                continue
            } catch {
                continue
            }
            for locale in locales {
                do {
                    if let pattern = try Self.pattern(of: group.units, locale: locale) {
                        content.translations[locale, default: []].append(CatalogContent.Translation(key: group.key, pattern: pattern))
                    }
                } catch let error as ConversionError {
                    problems += error.problems
                } catch {}
            }
        }
        return (content, problems)
    }

    /// One locale's ICU pattern for a group of units; nil when the locale has none of them. A single unit whose
    /// message is text and arguments only is written straight from its pieces (`PrintfMessage.plainPattern`).
    private static func pattern(of units: [Unit], locale: CatalogLocale) throws -> String? {
        if units.count == 1, units[0].selectCase == nil, let message = units[0].messages[locale],
           let plain = try message.plainPattern(legend: units[0].legend, locale: locale, key: units[0].key) {
            return plain
        }
        return try message(of: units, locale: locale)?.pattern
    }

    /// One locale's ICU message for a group of units (one plain unit, or the cases of a select); nil when the
    /// locale has none of them.
    private static func message(of units: [Unit], locale: CatalogLocale) throws -> ICUMessage? {
        func icu(_ unit: Unit) throws -> ICUMessage? {
            try unit.messages[locale]?.icuMessage(legend: unit.legend, locale: locale, sourceExactZero: unit.exactZero, key: unit.key)
        }
        guard let selectCase = units[0].selectCase else { return try icu(units[0]) }
        let cases = try units.compactMap { unit in try icu(unit).map { ICUMessage.Case(key: unit.selectCase?.value ?? "", message: $0) } }
        guard !cases.isEmpty else { return nil }
        return ICUMessage([.choice(ICUMessage.Choice(name: selectCase.argument, kind: .select, cases: cases))])
    }
}
