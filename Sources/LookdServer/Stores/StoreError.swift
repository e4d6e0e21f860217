/// A failed store operation: the back end's code (an SQLite result code, or a PostgreSQL SQLSTATE such as
/// `57014` for a statement timeout; `08000` when the database cannot be reached), its message (passwords
/// redacted) and the back end's name. It never leaves the services: `ServiceStore` counts and logs it and throws
/// the services' `StoreUnavailableError` instead.
struct StoreError: Error, CustomStringConvertible {
    var code: String
    var message: String
    var backend: String

    init(code: String, message: String, backend: String) {
        self.code = code
        self.message = message
        self.backend = backend
    }

    /// An SQLite failure with its result code.
    init(code: Int32, message: String) {
        self.code = String(code)
        self.message = message
        backend = "SQLite"
    }

    /// A PostgreSQL failure with its SQLSTATE (or a connection-class code).
    init(sqlstate: String, message: String) {
        code = sqlstate
        self.message = message
        backend = "PostgreSQL"
    }

    var description: String { "\(backend) error \(code): \(message)" }
}

extension StoreError {
    /// `lookd store copy` found a version in the destination that is not the source's.
    static func differs(appKey: String, version: Int) -> StoreError {
        StoreError(code: "copy", message: "version \(version) of \(appKey) differs between the two stores", backend: "lookd")
    }
}
