import CICU

/// Small bridges between Swift strings and the shim's UTF-8 conventions (see `lookd_icu.h`).
enum ICUText {
    /// Calls `body` with the string's UTF-8 bytes and their length. Never passes a null pointer.
    @inline(__always)
    static func withUTF8<R>(_ text: String, _ body: (UnsafePointer<CChar>, Int32) throws -> R) rethrows -> R {
        var text = text
        return try text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                return try withUnsafePointer(to: CChar(0)) { try body($0, 0) }
            }
            return try base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                try body($0, Int32(bytes.count))
            }
        }
    }

    /// Runs a shim function that writes UTF-8 into a buffer and returns the length it needs (negative = error),
    /// growing the buffer once when the first capacity is too small. Returns nil on a negative result.
    @inline(__always)
    static func string(capacity: Int = 128, _ write: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String? {
        var capacity = max(capacity, 16)
        while true {
            var needed: Int32 = 0
            let text = String(unsafeUninitializedCapacity: capacity) { buffer in
                needed = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: capacity) {
                    write($0, Int32(capacity))
                }
                return needed >= 0 && Int(needed) <= capacity ? Int(needed) : 0
            }
            if needed < 0 { return nil }
            if Int(needed) <= capacity { return text }
            capacity = Int(needed)
        }
    }

    /// The ICU error name for a (positive) UErrorCode, e.g. "U_ILLEGAL_ARGUMENT_ERROR".
    static func errorName(_ code: Int32) -> String {
        String(cString: lookd_icu_error_name(code))
    }
}
