extension PrintfMessage {
    /// A message with one plural and text around it, as one whole-message plural whose variants carry the
    /// text (`Only {n, plural, one {# day} other {# days}} left` → `Only %d day left` / `Only %d days left`):
    /// what Android's whole-string `<plurals>` can hold. Nil when the message has no plural, several, or is
    /// already one plural.
    var textMovedIntoPlural: PrintfMessage? {
        guard plurals.count == 1, wholePlural == nil else { return nil }
        let plural = plurals[0]
        let variants = plural.variants.map { variant in
            Variant(category: variant.category, pieces: template.flatMap { $0 == .plural(plural.argument) ? variant.pieces : [$0] })
        }
        return PrintfMessage(template: [.plural(plural.argument)], plurals: [Plural(argument: plural.argument, variants: variants)])
    }

    /// The inverse of `textMovedIntoPlural` for a whole-message plural with two or more variants: the text
    /// (and arguments) every variant starts with, up to its first count, goes before the plural, and what
    /// every variant ends with, after its last count, goes after it. Gives back the original when the text
    /// around the plural was exactly what its variants share; otherwise a message that formats the same.
    var textMovedOutOfPlural: PrintfMessage {
        guard let plural = wholePlural, plural.variants.count >= 2 else { return self }
        enum Atom: Hashable { case character(Character), piece(Piece) }
        func atoms(_ pieces: [Piece]) -> [Atom] {
            pieces.flatMap { piece -> [Atom] in
                if case .text(let text) = piece { return text.map(Atom.character) }
                return [.piece(piece)]
            }
        }
        func pieces(_ atoms: some Sequence<Atom>) -> [Piece] {
            var result: [Piece] = []
            for atom in atoms {
                switch atom {
                case .character(let character):
                    if case .text(let text)? = result.last { result[result.count - 1] = .text(text + String(character)) } else { result.append(.text(String(character))) }
                case .piece(let piece): result.append(piece)
                }
            }
            return result
        }
        let variantAtoms = plural.variants.map { atoms($0.pieces) }
        let shortest = variantAtoms.map(\.count).min() ?? 0
        var prefix = 0
        while prefix < shortest, variantAtoms.allSatisfy({ $0[prefix] == variantAtoms[0][prefix] }), variantAtoms[0][prefix] != .piece(.count) { prefix += 1 }
        var suffix = 0
        while suffix < shortest - prefix,
              variantAtoms.allSatisfy({ $0[$0.count - 1 - suffix] == variantAtoms[0][variantAtoms[0].count - 1 - suffix] }),
              variantAtoms[0][variantAtoms[0].count - 1 - suffix] != .piece(.count) { suffix += 1 }
        guard prefix + suffix > 0 else { return self }
        let variants = zip(plural.variants, variantAtoms).map { variant, atoms in
            Variant(category: variant.category, pieces: pieces(atoms[prefix..<(atoms.count - suffix)]))
        }
        let template = pieces(variantAtoms[0][..<prefix]) + [.plural(plural.argument)] + pieces(variantAtoms[0][(variantAtoms[0].count - suffix)...])
        return PrintfMessage(template: template, plurals: [Plural(argument: plural.argument, variants: variants)])
    }
}
