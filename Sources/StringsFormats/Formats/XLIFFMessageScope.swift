/// The keys of the messages an Xcode export's `<file>`s hold, kept apart per file. Xcode writes one `<file>` per
/// source file, and two files may hold the same key (an app's and its widget's `Localizable.xcstrings`, two
/// `.stringsdict`s): each file's message stays its own, keyed by the file (`ORIGINAL|KEY`) when an earlier file
/// has the key. A message is a string's unit or every unit of one plural (`XLIFFPluralUnits`: `KEY|==|plural.one`,
/// the substitution string `KEY` with `KEY|==|substitutions.…`, `/KEY:dict/…`), so all its units move together and
/// their ids stay ids of the same form (`ORIGINAL|KEY|==|plural.one`, `/ORIGINAL|KEY:dict/…`). Pure.
enum XLIFFMessageScope {
    /// The keys of the files scoped so far, each with the first file that had it: what `scoped` keeps across an
    /// export's files. A value type.
    struct Used {
        /// A key's entry: the ordinal of the first file with it, times two, plus one once that file had a unit whose
        /// id is the key itself (a string's unit, not a plural's).
        private var entries: [String: Int] = [:]
        /// Files scoped so far: the ordinal of the next.
        private var files = 0

        /// Room for `keyCapacity` keys (a document's units): the entries are made once, not grown a key at a time,
        /// rehashing every key so far (2.1 of the 206 million instructions of `lookd lint` on one `lint-xliff` bench
        /// file, callgrind, 3 Dec 2026).
        init(keyCapacity: Int = 0) {
            entries.reserveCapacity(keyCapacity)
        }

        fileprivate mutating func startFile() -> Int {
            defer { files += 1 }
            return files
        }

        /// Whether an earlier file than `file` has `key`, and whether `file` had a unit whose id is `key`; the key is
        /// `file`'s from now on when no file had it, and `file` has had such a unit when `isID`.
        ///
        /// One hash look-up: the entry is read and, when absent, made through the dictionary's `default:` subscript.
        /// A set of the earlier files' keys, one of the file's ids and its keys added to the first at the file's end
        /// (three look-ups a unit) were 9.0 of the 248 million instructions of `lookd lint` on one `lint-xliff` bench
        /// file (callgrind, 3 Dec 2026).
        fileprivate mutating func note(key: String, file: Int, isID: Bool) -> (inEarlierFile: Bool, idSeen: Bool) {
            Self.note(&entries[key, default: file << 1], file: file, isID: isID)
        }

        private static func note(_ entry: inout Int, file: Int, isID: Bool) -> (inEarlierFile: Bool, idSeen: Bool) {
            let inEarlierFile = entry >> 1 != file, idSeen = entry & 1 == 1
            if !inEarlierFile, isID { entry |= 1 }
            return (inEarlierFile, idSeen)
        }
    }

    /// `ids` (one `<file>`'s unit ids, in order) with every message whose key `used` (the earlier files' keys)
    /// holds keyed by `original`, and an id repeated inside the file keyed so too; `used` gets this file's keys.
    static func scoped(_ ids: [String], original: String?, used: inout Used) -> [String] {
        let prefix = (original ?? "") + "|"
        let file = used.startFile()
        // A plural's unit ids seen in this file (a string's unit id is its key: `used` tells whether it was seen). A
        // plural's id is never a string's (parsed, it gives another key).
        var pluralIDs: Set<String> = []
        var result = ids
        for index in ids.indices {
            let id = ids[index]
            let keyed: Bool
            let pluralKey = XLIFFPluralUnits.parse(id: id)?.key
            if let key = pluralKey {
                keyed = used.note(key: key, file: file, isID: false).inEarlierFile || !pluralIDs.insert(id).inserted
            } else {
                let noted = used.note(key: id, file: file, isID: true)
                keyed = noted.inEarlierFile || noted.idSeen
            }
            guard keyed else { continue }
            // A `.stringsdict` path keeps its leading `/`: the key is what comes before the first `:dict/`.
            let isPath = pluralKey != nil && id.hasPrefix("/") && !id.contains("|==|")
            result[index] = isPath ? "/" + prefix + id.dropFirst() : prefix + id
            _ = used.note(key: XLIFFPluralUnits.parse(id: result[index])?.key ?? result[index], file: file, isID: false)
        }
        return result
    }
}
