import Foundation

/// Where the daemon turns values into JSON bytes: keys sorted, `/` not escaped, so equal values give equal bytes.
enum JSONText {
    /// `value` as compact JSON with sorted keys. Our own value types always encode; if one ever did not,
    /// the result is `null` rather than a crash.
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map(Array.init) ?? Array("null".utf8)
    }
}
