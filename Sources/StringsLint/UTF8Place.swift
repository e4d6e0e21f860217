/// Where StableJSON's UTF-8 validation (``StableJSON/UTF8Validation``) found the first bad sequence, as a finding's
/// place.
enum UTF8Place {
    /// The line and column (scalars) of `byteOffset` in `bytes` whose prefix up to it is valid.
    static func position(of byteOffset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition {
        var line = 1
        var column = 1
        var index = 0
        while index < byteOffset {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourcePosition(line: line, column: column)
    }
}
