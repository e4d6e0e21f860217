/// Which characters of team text a person can see, and which reorder text around them.
///
/// A name or label must show something: a text with no visible character (only zero-width spaces, joiners,
/// byte order marks, bidi marks, line separators, noncharacters like U+FFFF, …) is refused with
/// ``Diagnostic/Code/invisibleText``, and the monogram skips every leading character that is not visible.
enum VisibleText {
    /// Visible: a letter, number, punctuation or symbol (general categories L, N, P, S) that is not a
    /// Default_Ignorable_Code_Point (so the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0 do not count).
    /// Not visible: white space and separators (Z), controls and format characters (Cc, Cf: ZWSP, ZWNJ, ZWJ,
    /// BOM, LRM/RLM, bidi embeddings, overrides and isolates), combining marks on their own (M), private-use,
    /// surrogate and unassigned code points including noncharacters (Co, Cs, Cn).
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value > 0x20 && scalar.value < 0x7F }
        let properties = scalar.properties
        guard !properties.isDefaultIgnorableCodePoint else { return false }
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// The bidi formatting characters (Bidi_Control): ALM U+061C, LRM U+200E, RLM U+200F, the embeddings and
    /// overrides U+202A–U+202E and the isolates U+2066–U+2069. In a short label an unbalanced override (RLO)
    /// reverses what follows it — the name, and text the app puts after it — so names and topic labels refuse
    /// them; the chat isolates every name itself.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
