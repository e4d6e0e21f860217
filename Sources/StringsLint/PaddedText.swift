/// Zero-padded numbers in messages (`U+0007`, `0x0F`).
extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
