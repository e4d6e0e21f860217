/// The keys of the messages an Xcode export's `<file>`s hold, kept apart per file. Xcode writes one `<file>` per
/// source file, and two files may hold the same key (an app's and its widget's `Localizable.xcstrings`, two
/// `.stringsdict`s): each file's message stays its own, keyed by the file (`ORIGINAL|KEY`) when an earlier file
/// has the key. A message is a string's unit or every unit of one plural (`XLIFFPluralUnits`: `KEY|==|plural.one`,
/// the substitution string `KEY` with `KEY|==|substitutions.…`, `/KEY:dict/…`), so all its units move together and
/// their ids stay ids of the same form (`ORIGINAL|KEY|==|plural.one`, `/ORIGINAL|KEY:dict/…`). Pure.
enum XLIFFMessageScope {
    /// `ids` (one `<file>`'s unit ids, in order) with every message whose key `used` (the earlier files' keys)
    /// holds keyed by `original`, and an id repeated inside the file keyed so too; `used` gets this file's keys.
    static func scoped(_ ids: [String], original: String?, used: inout Set<String>) -> [String] {
        let prefix = (original ?? "") + "|"
        let keys = ids.map { XLIFFPluralUnits.parse(id: $0)?.key ?? $0 }
        let clashing = Set(keys).intersection(used)
        var seen: Set<String> = []
        let result = zip(ids, keys).map { id, key -> String in
            guard clashing.contains(key) || !seen.insert(id).inserted else { return id }
            // A `.stringsdict` path keeps its leading `/`: the key is what comes before the first `:dict/`.
            if key != id, id.hasPrefix("/"), !id.contains("|==|") { return "/" + prefix + id.dropFirst() }
            return prefix + id
        }
        used.formUnion(result.map { XLIFFPluralUnits.parse(id: $0)?.key ?? $0 })
        return result
    }
}
