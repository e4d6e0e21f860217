import Strings
/// One catalog file as the linter reads it: every entry with the position of its key and of its message, every
/// key written twice, and every problem with the file's bytes — read from the bytes themselves, because JSON
/// decoders drop duplicate keys and positions.
///
/// An entry's value is a message pattern (`"key": "pattern"`, the locale catalogs) or an object with a string
/// `message` and optional `description` and `maxLength` (`en.json`, the source). Both forms are accepted in
/// every file, so any catalog can serve as the source (`--source`).
struct CatalogDocument: Sendable {
    struct Entry: Sendable {
        let key: String
        let keyPosition: SourcePosition
        /// The message pattern and where each of its scalars is in the file.
        let value: JSONStringToken
        let maxLength: Int?
        var message: String { value.value }
    }

    struct Duplicate: Sendable {
        let key: String
        let position: SourcePosition
        let firstLine: Int
        /// The keys of the objects enclosing it (empty at the top level).
        let path: [String]
    }

    struct Problem: Sendable {
        let check: LintCheck
        let position: SourcePosition
        let key: String?
        let message: String
    }

    /// Entries in file order. A key written twice is listed once, with its last value (what decoders keep).
    private(set) var entries: [Entry] = []
    private(set) var duplicates: [Duplicate] = []
    /// Problems with the file: invalid UTF-8 or JSON (when `entries` is empty and reading stopped there), or
    /// entries of the wrong shape and raw control characters (reading went on).
    private(set) var problems: [Problem] = []

    /// Reads `bytes`. Never throws: every problem becomes a `Problem`.
    init(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            if let bad = UTF8Validation.firstInvalidOffset(buffer) {
                let byte = String(buffer[bad], radix: 16, uppercase: true).leftPadded(to: 2)
                problems.append(Problem(check: .invalidUTF8, position: UTF8Validation.position(of: bad, in: buffer), key: nil,
                                        message: "invalid UTF-8 (byte 0x\(byte) at offset \(bad)); the file was not checked further"))
                return
            }
            var scanner = JSONScanner(bytes: buffer)
            let root: JSONNode
            do throws(JSONSyntaxError) {
                root = try scanner.parseDocument()
            } catch {
                problems.append(Problem(check: .invalidJSON, position: error.position, key: nil,
                                        message: "not valid JSON: \(error.message)"))
                return
            }
            for problem in scanner.problems {
                problems.append(Problem(check: .invalidJSON, position: problem.position, key: nil, message: problem.message))
            }
            guard case .object(_, let members) = root else {
                problems.append(Problem(check: .invalidJSON, position: root.position, key: nil,
                                        message: "the top level must be a JSON object of key → message"))
                return
            }
            readEntries(members)
        }
    }

    private mutating func readEntries(_ members: [JSONMember]) {
        var indexByKey: [String: Int] = [:]
        var malformedLine: [String: Int] = [:] // keys whose (first) entry had the wrong shape
        indexByKey.reserveCapacity(members.count)
        for member in members {
            let key = member.key.value
            let existing = indexByKey[key]
            if let line = existing.map({ entries[$0].keyPosition.line }) ?? (malformedLine.isEmpty ? nil : malformedLine[key]) {
                duplicates.append(Duplicate(key: key, position: member.key.quote, firstLine: line, path: []))
            }
            var entry: Entry?
            switch member.value {
            case .string(let token):
                entry = Entry(key: key, keyPosition: member.key.quote, value: token, maxLength: nil)
            case .object(_, let fields):
                findDuplicates(in: fields, path: [key])
                var message: JSONStringToken?
                var maxLength: Int?
                for field in fields {
                    switch (field.key.value, field.value) {
                    case ("message", .string(let token)): message = token
                    case ("maxLength", .number(let number, _)) where number >= 0 && number == number.rounded() && number < 1e9:
                        maxLength = Int(number)
                    case ("maxLength", let other):
                        problems.append(Problem(check: .invalidJSON, position: other.position, key: key,
                                                message: "'\(key)': maxLength must be a non-negative integer"))
                    default: break
                    }
                }
                if let message {
                    entry = Entry(key: key, keyPosition: member.key.quote, value: message, maxLength: maxLength)
                }
            default:
                break
            }
            guard let entry else {
                if existing == nil, malformedLine[key] == nil { malformedLine[key] = member.key.quote.line }
                problems.append(Problem(check: .invalidJSON, position: member.value.position, key: key,
                                        message: "'\(key)' must map to a message string or an object with a string \"message\""))
                continue
            }
            if let existing {
                entries[existing] = entry
            } else {
                indexByKey[key] = entries.count
                entries.append(entry)
            }
        }
    }

    private mutating func findDuplicates(in members: [JSONMember], path: [String]) {
        var firstLine: [String: Int] = [:]
        firstLine.reserveCapacity(members.count)
        for member in members {
            if let line = firstLine[member.key.value] {
                duplicates.append(Duplicate(key: member.key.value, position: member.key.quote, firstLine: line, path: path))
            } else {
                firstLine[member.key.value] = member.key.quote.line
            }
            if case .object(_, let nested) = member.value {
                findDuplicates(in: nested, path: path + [member.key.value])
            }
        }
    }
}
