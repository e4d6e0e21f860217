/// One libFuzzer input read front to back: a cursor over its bytes that hands out selectors, integers and
/// strings. Reads past the end give zeros and empty strings, so every input is usable. A value type; not shared.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    /// Copies `count` bytes from libFuzzer's buffer (`data` may be nil when `count` is 0).
    public init(_ data: UnsafePointer<UInt8>?, _ count: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    }

    /// The whole input, unread.
    public var all: [UInt8] { bytes }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, or 0 at the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// One of `choices`, picked by the next byte. `choices` must not be empty.
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(byte()) % choices.count]
    }

    /// The next 8 bytes as a little-endian signed integer (missing bytes are zeros).
    public mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return Int64(bitPattern: value)
    }

    /// The bytes up to the next NUL (consumed, not returned) or the end, decoded as UTF-8 with repair.
    public mutating func string() -> String {
        String(decoding: chunk(), as: UTF8.self)
    }

    /// The bytes up to the next NUL (consumed, not returned) or the end, raw.
    public mutating func chunk() -> [UInt8] {
        let start = min(offset, bytes.count)
        var end = start
        while end < bytes.count, bytes[end] != 0 { end += 1 }
        offset = end + 1
        return Array(bytes[start..<end])
    }
}
