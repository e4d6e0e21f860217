import CLibPQ
import Foundation

/// One libpq connection: parameterised statements with text parameters and text results, plus the socket
/// and notification queue the listener polls. Not thread-safe: one thread uses it at a time (the pool
/// hands it to one operation; the listener owns its own), hence `@unchecked Sendable` for the hand-over.
final class PostgresConnection: @unchecked Sendable {
    /// The rows of a result, each field as text (nil: SQL NULL).
    typealias Rows = [[String?]]

    private var handle: OpaquePointer?
    private let secrets: [String]
    /// Statements that succeeded on this connection (the pool retries on a fresh connection only when a
    /// reused one failed before any statement of the operation ran).
    private(set) var succeeded = 0

    /// SQLSTATE class 08: the connection is gone or was never made.
    static let connectionFailure = "08006"

    /// Connects to `uri` (a libpq URI), waiting at most `timeoutSeconds` unless the URI sets `connect_timeout`,
    /// and sets the session's `statement_timeout` and `lock_timeout` to `statementTimeoutMilliseconds` (0: none).
    /// `secrets` (the password) are removed from every error message. Throws StoreError (`08006`).
    init(uri: String, timeoutSeconds: Int32, statementTimeoutMilliseconds: Int, secrets: [String]) throws {
        self.secrets = secrets.filter { !$0.isEmpty }
        handle = lookd_pq_connect(uri, timeoutSeconds)
        guard lookd_pq_is_ok(handle) != 0 else {
            let message = String(cString: lookd_pq_error_message(handle)).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            close()
            throw StoreError(sqlstate: Self.connectionFailure, message: Self.scrub(message, self.secrets))
        }
        let timeout = String(statementTimeoutMilliseconds)
        let rows = try query("""
            SELECT set_config('statement_timeout', $1, false), set_config('lock_timeout', $1, false), pg_backend_pid(),
                   (SELECT backend_start::text FROM pg_stat_activity WHERE pid = pg_backend_pid())
            """, [timeout])
        backend = Backend(pid: rows.first?[2] ?? "", started: rows.first?[3] ?? "")
    }

    /// The server process serving this connection: its pid and start time, which together name it on any server
    /// (a standby promoted in its place has other processes).
    struct Backend: Sendable, Equatable {
        var pid: String
        var started: String
    }

    /// This connection's server process.
    private(set) var backend = Backend(pid: "", started: "")

    /// Whether `error` (thrown by `query`) means the connection or its server process went away (SQLSTATE class
    /// 08, or 57P: terminated by an administrator, a crash or a shutdown): a COMMIT that failed so may have committed.
    static func isConnectionLoss(_ error: StoreError) -> Bool {
        error.code.hasPrefix("08") || error.code.hasPrefix("57P")
    }

    deinit { close() }

    /// Closes the connection (idempotent).
    func close() {
        lookd_pq_finish(handle)
        handle = nil
    }

    /// Whether the connection is still usable (false once the server went away or `close()` ran).
    var isUsable: Bool { handle != nil && lookd_pq_is_ok(handle) != 0 }

    /// Runs one statement with `parameters` as `$1`, `$2`… and returns its rows. Throws StoreError with the
    /// statement's SQLSTATE (`57014` statement timeout, `40001` serialization, `23505` unique violation…),
    /// or `08006` when the connection is lost.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws -> Rows {
        try run(parameters) { handle, count, values in lookd_pq_exec(handle, sql, count, values) }
    }

    /// Runs COMMIT, giving the server at most `timeoutMilliseconds` (0: no bound). `statement_timeout` does not cover
    /// a COMMIT that waits for a synchronous standby (one that is down makes it wait for ever), so past the bound lookd
    /// cancels the statement itself, closes the connection and throws StoreError `08006`: the outcome is then unknown
    /// (a cancelled wait for the standby leaves the transaction committed on the primary only), as when the connection
    /// dies during COMMIT. Any other failure is thrown as `query` throws it, and the connection is closed too.
    func commit(timeoutMilliseconds: Int) throws {
        guard timeoutMilliseconds > 0 else {
            try query("COMMIT")
            return
        }
        var cancelled: Int32 = 0
        do {
            try withUnsafeMutablePointer(to: &cancelled) { flag in
                _ = try run([]) { handle, count, values in lookd_pq_exec_deadline(handle, "COMMIT", count, values, Int32(clamping: timeoutMilliseconds), flag) }
            }
        } catch {
            close()
            guard cancelled != 0 else { throw error }
        }
        guard cancelled != 0 else { return }
        close()
        throw StoreError(sqlstate: Self.connectionFailure,
                         message: "COMMIT did not finish within \(timeoutMilliseconds) ms (no synchronous standby confirmed it); lookd cancelled it and closed the connection")
    }

    /// Runs one statement through `execute` (the handle, the parameter count and values) and returns its rows.
    private func run(_ parameters: [String?], _ execute: (OpaquePointer, Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> OpaquePointer?) throws -> Rows {
        guard let handle else { throw StoreError(sqlstate: Self.connectionFailure, message: "the connection is closed") }
        let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        let result = copies.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                execute(handle, Int32(values.count), values.baseAddress)
            }
        }
        defer { lookd_pq_clear(result) }
        guard lookd_pq_result_ok(result) != 0 else {
            var state = String(cString: lookd_pq_result_sqlstate(result))
            var message = String(cString: lookd_pq_result_error(result))
            if !isUsable {
                state = Self.connectionFailure
                if message.isEmpty { message = String(cString: lookd_pq_error_message(handle)) }
            }
            throw StoreError(sqlstate: state.isEmpty ? Self.connectionFailure : state,
                             message: Self.scrub(message.trimmingCharacters(in: .whitespacesAndNewlines), secrets))
        }
        succeeded += 1
        let count = lookd_pq_rows(result)
        guard count > 0 else { return [] }
        var rows: Rows = []
        rows.reserveCapacity(Int(count))
        let columns = Int(lookd_pq_columns(result))
        for row in 0..<count {
            var fields: [String?] = []
            fields.reserveCapacity(columns)
            for column in 0..<Int32(columns) {
                if lookd_pq_is_null(result, row, column) != 0 {
                    fields.append(nil)
                } else {
                    let length = Int(lookd_pq_length(result, row, column))
                    let bytes = UnsafeRawPointer(lookd_pq_value(result, row, column)!).assumingMemoryBound(to: UInt8.self)
                    fields.append(String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self))
                }
            }
            rows.append(fields)
        }
        return rows
    }

    /// The socket to poll for notifications, or -1.
    var socket: Int32 { handle.map { lookd_pq_socket($0) } ?? -1 }

    /// Reads what arrived without blocking and returns the payloads of the notifications received.
    /// Throws StoreError (`08006`) when the connection is lost.
    func receiveNotifications() throws -> [String] {
        guard let handle, lookd_pq_consume_input(handle) != 0, isUsable else {
            throw StoreError(sqlstate: Self.connectionFailure, message: "the listening connection was lost")
        }
        var payloads: [String] = []
        var buffer = [CChar](repeating: 0, count: 512)
        while lookd_pq_next_notification(handle, &buffer, buffer.count) != 0 {
            payloads.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return payloads
    }

    /// `message` with every secret replaced by `***`.
    static func scrub(_ message: String, _ secrets: [String]) -> String {
        secrets.reduce(message) { $1.isEmpty ? $0 : $0.replacingOccurrences(of: $1, with: "***") }
    }
}
