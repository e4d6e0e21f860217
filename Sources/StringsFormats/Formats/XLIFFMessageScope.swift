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
        // Each id is parsed once, and only a keyed id again (a Set of the file's keys, its intersection with `used` and
        // a second parse of every id were 15.7 of the 400 million instructions of `lookd lint` on one `lint-xliff`
        // bench file, callgrind, 2 Dec 2026). `used` gets this file's keys only at the end: a key clashes when an
        // earlier file has it.
        var keys = ids.map { XLIFFPluralUnits.parse(id: $0)?.key ?? $0 }
        var seen: Set<String> = []
        seen.reserveCapacity(ids.count)
        var result = ids
        for index in ids.indices {
            let id = ids[index], key = keys[index]
            guard used.contains(key) || !seen.insert(id).inserted else { continue }
            // A `.stringsdict` path keeps its leading `/`: the key is what comes before the first `:dict/`.
            result[index] = key != id && id.hasPrefix("/") && !id.contains("|==|") ? "/" + prefix + id.dropFirst() : prefix + id
            keys[index] = XLIFFPluralUnits.parse(id: result[index])?.key ?? result[index]
        }
        used.formUnion(keys)
        return result
    }
}
