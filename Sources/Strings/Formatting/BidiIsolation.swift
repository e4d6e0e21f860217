/// Unicode bidirectional isolates (UAX #9) around text that people or teams supply — names, product names —
/// so an English name inside Arabic text, or a Hebrew name inside English text, cannot reorder the words
/// around it.
public enum BidiIsolation {
    /// FIRST STRONG ISOLATE, U+2068: the isolated text takes the direction of its first strong character.
    public static let firstStrongIsolate: Character = "\u{2068}"
    /// POP DIRECTIONAL ISOLATE, U+2069.
    public static let popDirectionalIsolate: Character = "\u{2069}"

    /// `text` as FSI + text + PDI. Bidi embedding, override and isolate controls inside `text`
    /// (U+202A–U+202E, U+2066–U+2069) are removed first: an unmatched PDI or an override in a user's name
    /// could otherwise end the isolate early or reorder the rest of the line.
    public static func isolate(_ text: String) -> String {
        var result = "\u{2068}"
        result.reserveCapacity(text.utf8.count + 6)
        if text.unicodeScalars.contains(where: isDirectionalControl) {
            result.unicodeScalars.append(contentsOf: text.unicodeScalars.filter { !isDirectionalControl($0) })
        } else {
            result += text
        }
        result += "\u{2069}"
        return result
    }

    static func isDirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
