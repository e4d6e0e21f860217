extension JSONReader {
    /// What ``readDocument(_:options:)`` does with a key named twice in one object.
    public enum DuplicateKeys: Sendable, Hashable {
        /// Refuse the input (``JSONReadError/Code/duplicateKey`` at the repeated key), as ``read(_:limits:)`` does.
        case refuse
        /// Keep every member in file order, each with its position, for the caller to report
        /// (``JSONDocument/duplicateMembers``); lookups by key find the first.
        case keep
    }

    /// How ``readDocument(_:options:)`` reads.
    public struct DocumentOptions: Sendable, Hashable {
        public var limits: Limits
        public var duplicateKeys: DuplicateKeys
        /// For checkers that list every defect (a linter): a raw control character in a string is kept in the
        /// string and a `\u` escape of a lone surrogate is read as U+FFFD, each listed in `recovered` by
        /// ``readDocument(_:options:recovered:)`` instead of refused; a UTF-8 byte order mark is skipped
        /// (positions on line 1 then count columns after it). Everything else stays an error.
        public var recoversFromStringDefects: Bool

        public init(limits: Limits = .default, duplicateKeys: DuplicateKeys = .refuse, recoversFromStringDefects: Bool = false) {
            self.limits = limits
            self.duplicateKeys = duplicateKeys
            self.recoversFromStringDefects = recoversFromStringDefects
        }
    }

    /// Reads one JSON text as a ``JSONDocument``: members in file order, the position of every value and key.
    /// The same strict grammar as ``read(_:limits:)``; only duplicate keys may be kept (`options.duplicateKeys`).
    /// Time is linear in the input size. Pure and thread-safe.
    /// - Throws: ``JSONReadError`` with the first problem found and its position.
    public static func readDocument(_ bytes: some Collection<UInt8>, options: DocumentOptions = DocumentOptions()) throws -> JSONDocument {
        var recovered: [JSONReadError] = []
        return try readDocument(bytes, options: options, recovered: &recovered)
    }

    /// ``readDocument(_:options:)`` that appends to `recovered` the defects it read past
    /// (``DocumentOptions/recoversFromStringDefects``), in file order; they are appended even when a later
    /// error is thrown.
    public static func readDocument(_ bytes: some Collection<UInt8>, options: DocumentOptions, recovered: inout [JSONReadError]) throws -> JSONDocument {
        let result: (Result<JSONDocument, JSONReadError>, [JSONReadError])? = bytes.withContiguousStorageIfAvailable { readDocument(buffer: $0, options: options) }
        let (outcome, defects) = result ?? Array(bytes).withUnsafeBufferPointer { readDocument(buffer: $0, options: options) }
        recovered += defects
        return try outcome.get()
    }

    private static func readDocument(buffer: UnsafeBufferPointer<UInt8>, options: DocumentOptions) -> (Result<JSONDocument, JSONReadError>, [JSONReadError]) {
        var parser = JSONParser(bytes: buffer, limits: options.limits)
        parser.recovers = options.recoversFromStringDefects
        let outcome: Result<JSONDocument, JSONReadError>
        do throws(JSONParser.Failure) {
            outcome = .success(try parser.wholeDocument(keepDuplicates: options.duplicateKeys == .keep))
        } catch {
            outcome = .failure(parser.error(error))
        }
        return (outcome, parser.recovered.map { parser.error($0) })
    }
}

/// The ordered, positioned reading behind ``JSONReader/readDocument(_:options:)``: the grammar steps are the
/// value reader's; only what is built differs.
extension JSONParser {
    /// The position of byte `offset`, counted on from the last position asked for (positions are asked for in
    /// increasing order, so all of them together cost one pass over the input).
    mutating func position(at offset: Int) -> JSONPosition {
        var line = cursor.line, column = cursor.column
        var index = cursor.offset
        if offset < index { (line, column, index) = (1, 1, 0) }
        while index < offset {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        cursor = JSONPosition(line: line, column: column, offset: offset)
        return cursor
    }

    /// Whether reading skips a UTF-8 byte order mark (only when recovering, and only when there is one).
    var skipsByteOrderMark: Bool {
        recovers && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// `failure` with its line and column, counted after a skipped byte order mark.
    func error(_ failure: Failure) -> JSONReadError {
        guard skipsByteOrderMark, failure.offset >= 3 else { return Self.error(failure, in: bytes) }
        var shifted = failure
        shifted.offset -= 3
        var error = Self.error(shifted, in: UnsafeBufferPointer(rebasing: bytes[3...]))
        error.offset = failure.offset
        return error
    }

    mutating func wholeDocument(keepDuplicates: Bool) throws(Failure) -> JSONDocument {
        if skipsByteOrderMark {
            index = 3
            cursor = JSONPosition(line: 1, column: 1, offset: 3)
        } else {
            try checkEncoding()
        }
        skipWhitespace()
        let document = try node(keepDuplicates: keepDuplicates)
        skipWhitespace()
        guard index == bytes.count else {
            throw fail(.trailingContent, "unexpected \(describe(bytes[index])) after the JSON value")
        }
        return document
    }

    mutating func node(keepDuplicates: Bool) throws(Failure) -> JSONDocument {
        guard index < bytes.count else { throw fail(.unexpectedEnd, "the input ends where a value should start") }
        let start = position(at: index)
        switch bytes[index] {
        case UInt8(ascii: "{"):
            values += 1
            guard values <= limits.maxValues else { throw fail(.valueLimit, "more than \(limits.maxValues) values and keys") }
            return JSONDocument(.object(try members(keepDuplicates: keepDuplicates)), position: start)
        case UInt8(ascii: "["):
            values += 1
            guard values <= limits.maxValues else { throw fail(.valueLimit, "more than \(limits.maxValues) values and keys") }
            var elements: [JSONDocument] = []
            if try !enter(closing: UInt8(ascii: "]")) {
                repeat {
                    elements.append(try node(keepDuplicates: keepDuplicates))
                } while try !closes(UInt8(ascii: "]"), "array")
            }
            return JSONDocument(.array(elements), position: start)
        default:
            let scalar: JSONDocument.Value
            switch try value() {
            case .null: scalar = .null
            case .bool(let flag): scalar = .bool(flag)
            case .number(let number): scalar = .number(number)
            case .string(let text): scalar = .string(text)
            case .array, .object: preconditionFailure("containers are read above")
            }
            return JSONDocument(scalar, position: start)
        }
    }

    mutating func members(keepDuplicates: Bool) throws(Failure) -> [JSONDocument.Member] {
        var members: [JSONDocument.Member] = []
        var seen: Set<String> = []
        if try enter(closing: UInt8(ascii: "}")) { return members }
        repeat {
            let keyPosition = position(at: index)
            let (key, keyOffset) = try memberKey()
            let member = try node(keepDuplicates: keepDuplicates)
            if !keepDuplicates, !seen.insert(key).inserted {
                throw fail(.duplicateKey, "the key \"\(Self.clip(key))\" appears twice in one object", at: keyOffset)
            }
            members.append(JSONDocument.Member(key: key, keyPosition: keyPosition, value: member))
        } while try !closes(UInt8(ascii: "}"), "object")
        return members
    }
}
