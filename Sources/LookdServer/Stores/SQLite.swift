import CSQLite
import Foundation

/// One SQLite connection. Not thread-safe: the store guards each with a lock (`LockedValue`).
final class SQLiteConnection {
    private(set) var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating if needed) the database at `path`. Throws StoreError.
    init(path: String, readOnly: Bool = false) throws {
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        var db: OpaquePointer?
        let result = sqlite3_open_v2(path, &db, flags, nil)
        handle = db
        guard result == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close_v2(db)
            handle = nil
            throw StoreError(code: result, message: message)
        }
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { close() }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs one or more statements with no parameters and no rows wanted.
    func execute(_ sql: String) throws {
        guard let handle else { throw StoreError(code: SQLITE_MISUSE, message: "the database is closed") }
        var error: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &error)
        if result != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw StoreError(code: result, message: message)
        }
    }

    /// Runs a cached prepared statement with `bindings`, calling `row` for each result row.
    func query(_ sql: String, _ bindings: [SQLiteValue] = [], row: (Row) throws -> Void = { _ in }) throws {
        guard let handle else { throw StoreError(code: SQLITE_MISUSE, message: "the database is closed") }
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard result == SQLITE_OK, let prepared else { throw StoreError(code: result, message: String(cString: sqlite3_errmsg(handle))) }
            statements[sql] = prepared
            statement = prepared
        }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .integer(let number): result = sqlite3_bind_int64(statement, index, number)
            case .text(let text): result = lookd_sqlite_bind_text(statement, index, text, -1)
            case .null: result = sqlite3_bind_null(statement, index)
            }
            guard result == SQLITE_OK else { throw StoreError(code: result, message: String(cString: sqlite3_errmsg(handle))) }
        }
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { return }
            guard result == SQLITE_ROW else { throw StoreError(code: result, message: String(cString: sqlite3_errmsg(handle))) }
            try row(Row(statement: statement))
        }
    }

    /// Reads one row of a statement's current result.
    struct Row {
        fileprivate let statement: OpaquePointer
        var columnCount: Int32 { sqlite3_column_count(statement) }
        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        func text(_ column: Int32) -> String {
            guard let bytes = sqlite3_column_text(statement, column) else { return "" }
            let count = Int(sqlite3_column_bytes(statement, column))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
    }
}

enum SQLiteValue {
    case integer(Int64)
    case text(String)
    case null
}
