/// What the chat shows as the app's icon, in the seed's order: the bundle's own icon, then the dashboard's
/// `appIconUrl`, then the first letter of the app's name, then a generic chat glyph.
public enum AppIcon: Hashable, Sendable {
    /// The app bundle's own icon (CFBundleIcons).
    case bundle
    /// The icon of the app's store listing, from the dashboard (an https URL).
    case url(String)
    /// The first grapheme of the app's name, uppercased where that stays one grapheme ("Élan" → "É", an emoji stays).
    case monogram(String)
    /// No icon and no name: a generic chat glyph.
    case glyph

    /// The first grapheme of `name` that starts with a visible character (a letter, number, punctuation or
    /// symbol; never a control, format, bidi or zero-width character), uppercased when uppercasing keeps it a
    /// single grapheme. nil when `name` has no visible character.
    public static func monogram(of name: String) -> String? {
        // An ASCII letter or digit followed by ASCII (or nothing) is a whole grapheme: no grapheme breaking.
        var utf8 = name.utf8.makeIterator()
        if let first = utf8.next(), first > 0x20, first < 0x7F, (utf8.next() ?? 0) < 0x80 {
            let upper = first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") ? first - 0x20 : first
            // One ASCII byte: a small string, built in place without an allocation or a Character.
            return String(unsafeUninitializedCapacity: 1) { buffer in
                buffer[0] = upper
                return 1
            }
        }
        guard let first = name.first(where: { $0.unicodeScalars.first.map(VisibleText.isVisible) ?? false }) else { return nil }
        let upper = String(first).uppercased()
        return upper.count == 1 ? upper : String(first)
    }
}
