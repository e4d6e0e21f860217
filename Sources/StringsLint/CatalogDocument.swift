import StableJSON
import Strings
/// One catalog file as the linter reads it: every entry with the position of its key and of its message, every
/// key written twice, and every problem with the file's bytes — read by StableJSON's document reader, which keeps
/// duplicate keys, positions and the string defects a linter reports rather than stops at.
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
            var recovered: [JSONReadError] = []
            let root: JSONDocument
            do {
                root = try JSONReader.readDocument(buffer, options: Self.readOptions, recovered: &recovered)
            } catch let error as JSONReadError {
                // A read that succeeds has seen only well-formed UTF-8 (strings are validated, and nothing else
                // may hold a byte above 0x7F), so the file is validated only when reading stops.
                if let bad = UTF8Validation.firstInvalidOffset(in: buffer) {
                    let byte = String(buffer[bad], radix: 16, uppercase: true).leftPadded(to: 2)
                    problems.append(Problem(check: .invalidUTF8, position: UTF8Place.position(of: bad, in: buffer), key: nil,
                                            message: "invalid UTF-8 (byte 0x\(byte) at offset \(bad)); the file was not checked further"))
                    return
                }
                problems.append(Problem(check: .invalidJSON, position: Self.place(of: error, in: buffer), key: nil,
                                        message: "not valid JSON: \(error.message)"))
                return
            } catch {
                return
            }
            for defect in recovered {
                problems.append(Problem(check: .invalidJSON, position: SourcePosition(line: defect.line, column: defect.column), key: nil,
                                        message: Self.message(of: defect, in: buffer)))
            }
            guard let members = root.members else {
                problems.append(Problem(check: .invalidJSON, position: Self.place(root.position), key: nil,
                                        message: "the top level must be a JSON object of key → message"))
                return
            }
            readEntries(members, in: buffer)
        }
    }

    /// A catalog built in memory, in order: what reading lookd's own file of these entries gives, except that
    /// positions are the start of the file (nobody reads them: the caller places findings by key). Nil when the
    /// file would hold something only its bytes can report right: a key written twice (a finding naming the
    /// line of the first) or a `maxLength` outside 0..<1,000,000,000 (refused with its position).
    ///
    /// Keys that are, in order, among the keys of `order` (a catalog, which has no key twice: the source, whose order
    /// a translation's keys follow) are not written twice either, and are not gathered in a set to tell (the
    /// translation's set was 1.8 of the 239 million instructions of `lookd lint` on one `lint-xliff` bench file,
    /// callgrind, 3 Dec 2026).
    init?(entries: [(key: String, message: String, maxLength: Int?)], keysFollow order: CatalogDocument? = nil) {
        let followsOrder = order.map { Self.keys(of: entries, follow: $0.entries) } ?? false
        var keys: Set<String> = []
        if !followsOrder { keys.reserveCapacity(entries.count) }
        self.entries.reserveCapacity(entries.count)
        for entry in entries {
            guard followsOrder || keys.insert(entry.key).inserted, entry.maxLength.map({ (0..<1_000_000_000).contains($0) }) ?? true else { return nil }
            let value = JSONStringToken(value: entry.message, quote: .start, scalarPositions: nil, scalarCount: nil)
            self.entries.append(Entry(key: entry.key, keyPosition: .start, value: value, maxLength: entry.maxLength))
        }
    }

    /// Whether the keys of `entries` are, in order, among the keys of `order` (each found after the previous one's).
    private static func keys(of entries: [(key: String, message: String, maxLength: Int?)], follow order: [Entry]) -> Bool {
        var next = order.startIndex
        for entry in entries {
            while next < order.endIndex, order[next].key != entry.key { next += 1 }
            guard next < order.endIndex else { return false }
            next += 1
        }
        return true
    }

    /// Duplicate keys kept (they are findings), string defects listed (they are findings too), no size limits
    /// beyond the depth: a catalog is checked whole.
    static let readOptions = JSONReader.DocumentOptions(limits: .init(maxDepth: 256, maxStringBytes: .max, maxValues: .max),
                                                        duplicateKeys: .keep, recoversFromStringDefects: true)

    static func place(_ position: JSONPosition) -> SourcePosition { SourcePosition(line: position.line, column: position.column) }

    /// Where a finding for a fatal error points: the error's place, except that a trailing comma is reported at
    /// the bracket after it (where reading could not go on).
    static func place(of error: JSONReadError, in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition {
        guard error.code == .trailingComma else { return SourcePosition(line: error.line, column: error.column) }
        var (line, column, index) = (error.line, error.column + 1, error.offset + 1)
        while index < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) {
            if bytes[index] == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
        return SourcePosition(line: line, column: column)
    }

    /// The finding's message for a string defect StableJSON read past.
    static func message(of defect: JSONReadError, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard defect.code == .controlCharacter, defect.offset < bytes.count else {
            let scalar = JSONStringToken.hexQuad(at: defect.offset + 2, in: bytes) ?? 0xFFFD
            return "lone surrogate escape \\u\(String(scalar, radix: 16, uppercase: true))"
        }
        let byte = UInt32(bytes[defect.offset])
        let name = "U+" + String(byte, radix: 16, uppercase: true).leftPadded(to: 4)
        return "raw control character \(name) inside a string (JSON requires an escape such as \\n, \\t or \\u\(String(byte, radix: 16).leftPadded(to: 4)))"
    }

    private mutating func readEntries(_ members: [JSONDocument.Member], in bytes: UnsafeBufferPointer<UInt8>) {
        var indexByKey: [String: Int] = [:]
        var malformedLine: [String: Int] = [:] // keys whose (first) entry had the wrong shape
        indexByKey.reserveCapacity(members.count)
        for member in members {
            let key = member.key
            let keyPosition = Self.place(member.keyPosition)
            let existing = indexByKey[key]
            if let line = existing.map({ entries[$0].keyPosition.line }) ?? (malformedLine.isEmpty ? nil : malformedLine[key]) {
                duplicates.append(Duplicate(key: key, position: keyPosition, firstLine: line, path: []))
            }
            var entry: Entry?
            switch member.value.value {
            case .string(let text):
                entry = Entry(key: key, keyPosition: keyPosition, value: JSONStringToken(text, quote: member.value.position, in: bytes), maxLength: nil)
            case .object(let fields):
                findDuplicates(in: fields, path: [key])
                var message: JSONStringToken?
                var maxLength: Int?
                for field in fields {
                    switch (field.key, field.value.value) {
                    case ("message", .string(let text)): message = JSONStringToken(text, quote: field.value.position, in: bytes)
                    case ("maxLength", .number(let number)) where number.double >= 0 && number.double == number.double.rounded() && number.double < 1e9:
                        maxLength = Int(number.double)
                    case ("maxLength", _):
                        problems.append(Problem(check: .invalidJSON, position: Self.place(field.value.position), key: key,
                                                message: "'\(key)': maxLength must be a non-negative integer"))
                    default: break
                    }
                }
                if let message {
                    entry = Entry(key: key, keyPosition: keyPosition, value: message, maxLength: maxLength)
                }
            default:
                break
            }
            guard let entry else {
                if existing == nil, malformedLine[key] == nil { malformedLine[key] = keyPosition.line }
                problems.append(Problem(check: .invalidJSON, position: Self.place(member.value.position), key: key,
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

    private mutating func findDuplicates(in members: [JSONDocument.Member], path: [String]) {
        var firstLine: [String: Int] = [:]
        firstLine.reserveCapacity(members.count)
        for member in members {
            if let line = firstLine[member.key] {
                duplicates.append(Duplicate(key: member.key, position: Self.place(member.keyPosition), firstLine: line, path: path))
            } else {
                firstLine[member.key] = member.keyPosition.line
            }
            if let nested = member.value.members {
                findDuplicates(in: nested, path: path + [member.key])
            }
        }
    }
}
