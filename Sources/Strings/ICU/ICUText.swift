import CICU

/// Small bridges between Swift strings and the shim's UTF-8 conventions (see `lookd_icu.h`).
package enum ICUText {
    /// Calls `body` with the string's UTF-8 bytes and their length. Never passes a null pointer.
    @inline(__always)
    package static func withUTF8<R>(_ text: String, _ body: (UnsafePointer<CChar>, Int32) throws -> R) rethrows -> R {
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
    /// retrying once with a bigger buffer when the first is too small. Returns nil on a negative result.
    /// Writes into a stack buffer and then makes the String, so short results (≤ 15 UTF-8 bytes) are small
    /// strings (no allocation, fast hashing and comparison) and longer ones get an exactly sized allocation.
    @inline(__always)
    package static func string(capacity: Int = 128, _ write: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String? {
        let first = min(max(capacity, 16), 2_048)
        var needed: Int32 = 0
        let text = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: first) { buffer -> String? in
            needed = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: first) { write($0, Int32(first)) }
            guard needed >= 0, Int(needed) <= first else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<Int(needed)]), as: UTF8.self)
        }
        if let text { return text }
        if needed < 0 { return nil }
        let size = Int(needed)
        var again: Int32 = 0
        let result = String(unsafeUninitializedCapacity: size) { buffer in
            again = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: size) { write($0, Int32(size)) }
            return again >= 0 && Int(again) <= size ? Int(again) : 0
        }
        return again >= 0 && Int(again) <= size ? result : nil
    }

    /// The ICU error name for a (positive) UErrorCode, e.g. "U_ILLEGAL_ARGUMENT_ERROR".
    package static func errorName(_ code: Int32) -> String {
        String(cString: lookd_icu_error_name(code))
    }
}
