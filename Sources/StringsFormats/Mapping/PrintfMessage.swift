import Strings

/// A message as printf-style platforms (Apple String Catalogs, Android resources) carry it: a template of text
/// and argument references, where each plural argument is a slot filled by one of its variants. Neutral about
/// spelling: `%1$@` vs `%1$s` is the format's business. A value type.
public struct PrintfMessage: Sendable, Hashable {
    /// One piece of a template or variant.
    public enum Piece: Sendable, Hashable {
        case text(String)
        /// The 1-based argument number (`ArgumentLegend`).
        case argument(Int)
        /// Inside a plural variant: the plural's own number (ICU `#`).
        case count
        /// In the template: where the plural of argument n goes.
        case plural(Int)
    }

    /// One plural argument's variants.
    public struct Plural: Sendable, Hashable {
        /// The 1-based argument number of the plural's count.
        public var argument: Int
        /// Variants in CLDR order; `zero` per `ZeroCaseRule`.
        public var variants: [Variant]
    }

    /// The text for one plural category.
    public struct Variant: Sendable, Hashable {
        public var category: PluralCategory
        public var pieces: [Piece]
    }

    /// The message around its plurals (just `.plural(n)` when the message is one plural).
    public var template: [Piece]
    public var plurals: [Plural]

    /// The plural when the whole message is one plural argument (`{n, plural, …}` and nothing around it).
    public var wholePlural: Plural? {
        guard plurals.count == 1, template == [.plural(plurals[0].argument)] else { return nil }
        return plurals[0]
    }
}

extension PrintfMessage {
    /// The printf form of one locale's ICU message. `legend` comes from the source message, `sourceExactZero` is
    /// the numbers of the source's plural arguments that have an `=0` branch (`ZeroCaseRule`); every argument the
    /// translation uses must be in it with the same type and style. Throws `ConversionError` naming key and
    /// locale for what cannot be carried losslessly (nested plurals, a plural used twice, exact values other
    /// than `=0`, `#` outside a plural).
    init(_ message: ICUMessage, legend: ArgumentLegend, locale: CatalogLocale, sourceExactZero: Set<Int>, key: String) throws {
        func fail(_ reason: String, _ kind: ConversionError.Problem.Kind = .unsupported) -> ConversionError {
            ConversionError(key: key, locale: locale.identifier, reason: reason, kind: kind)
        }
        func reference(_ name: String, type: String?, style: String?) throws -> Int {
            guard let number = legend.number(of: name) else { throw fail("argument '\(name)' is not in the source message", .argument) }
            let entry = legend.entries[number - 1]
            guard entry.type == type, entry.style == style else {
                throw fail("argument '\(name)' is used as {\([name, type, style].compactMap { $0 }.joined(separator: ", "))}, the source has {\(entry.head)}", .argumentType)
            }
            return number
        }
        var plurals: [Plural] = []
        func pieces(_ message: ICUMessage, inPlural: Bool) throws -> [Piece] {
            try message.nodes.map { node in
                switch node {
                case .text(let text): return .text(text)
                case .argument(let name, let type, let style): return .argument(try reference(name, type: type, style: style))
                case .pound:
                    guard inPlural else { throw fail("'#' outside a plural") }
                    return .count
                case .choice(let choice):
                    guard choice.kind == .plural, choice.offset == nil else {
                        throw fail("\(choice.kind.rawValue) '\(choice.name)' here has no platform equivalent")
                    }
                    guard !inPlural else { throw fail("plural '\(choice.name)' nested in another plural") }
                    let number = try reference(choice.name, type: "plural", style: nil)
                    guard !plurals.contains(where: { $0.argument == number }) else { throw fail("plural '\(choice.name)' used twice") }
                    let branches = try choice.cases.map { (key: $0.key, content: try pieces($0.message, inPlural: true)) }
                    let variants = try ZeroCaseRule.variants(of: branches, locale: locale, sourceHasExactZero: sourceExactZero.contains(number), key: key, same: ==)
                    plurals.append(Plural(argument: number, variants: variants.map { Variant(category: $0.category, pieces: $0.content) }))
                    return .plural(number)
                }
            }
        }
        self.template = try pieces(message, inPlural: false)
        self.plurals = plurals
    }

    /// The ICU message this printf form stands for (the inverse of `init(_:legend:…)`).
    func icuMessage(legend: ArgumentLegend, locale: CatalogLocale, sourceExactZero: Set<Int>, key: String) throws -> ICUMessage {
        func entry(_ number: Int) throws -> ArgumentLegend.Entry {
            guard number >= 1, number <= legend.entries.count else {
                throw ConversionError(key: key, locale: locale.identifier, reason: "argument \(number) is not in the source message")
            }
            return legend.entries[number - 1]
        }
        func build(_ pieces: [Piece]) throws -> [ICUMessage.Node] {
            var nodes: [ICUMessage.Node] = []
            // At most a node a piece: one allocation, not one per node (growing the array was 3.7 of the 360 million
            // instructions of `lookd lint` on one `lint-xliff` bench file, callgrind, 2 Dec 2026).
            nodes.reserveCapacity(pieces.count)
            for piece in pieces {
                switch piece {
                case .text(let text):
                    if case .text(let previous)? = nodes.last { nodes[nodes.count - 1] = .text(previous + text) } else { nodes.append(.text(text)) }
                case .argument(let number):
                    let entry = try entry(number)
                    nodes.append(.argument(name: entry.name, type: entry.type, style: entry.style))
                case .count: nodes.append(.pound)
                case .plural(let number):
                    guard let plural = plurals.first(where: { $0.argument == number }) else {
                        throw ConversionError(key: key, locale: locale.identifier, reason: "no variants for the plural of argument \(number)")
                    }
                    let cases = try ZeroCaseRule.cases(of: plural.variants.map { ($0.category, $0.pieces) }, locale: locale, sourceHasExactZero: sourceExactZero.contains(number))
                        .map { ICUMessage.Case(key: $0.key, message: ICUMessage(try build($0.content))) }
                    nodes.append(.choice(ICUMessage.Choice(name: try entry(number).name, kind: .plural, cases: cases)))
                }
            }
            return nodes
        }
        return ICUMessage(try build(template))
    }
}
