/// WCAG 2.x contrast (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio), computed exactly and never rounded
/// before it is compared: 4.499 fails 4.5.
public enum Contrast {
    /// AA for body text: 4.5:1.
    public static let textMinimum = 4.5
    /// AAA for body text: 7:1. The increased-contrast palette's threshold.
    public static let enhancedMinimum = 7.0
    /// AA for large text and UI components: 3:1. The chat puts white text on the accent whenever white reaches it.
    public static let largeTextMinimum = 3.0

    /// Relative luminance, 0 (black) ... 1 (white): channel c/255 linearised with
    /// `c <= 0.04045 ? c/12.92 : ((c+0.055)/1.055)^2.4`, then `0.2126 R + 0.7152 G + 0.0722 B`.
    public static func luminance(_ color: RGBColor) -> Double {
        0.2126 * LinearRGB.linearize(color.red) + 0.7152 * LinearRGB.linearize(color.green) + 0.0722 * LinearRGB.linearize(color.blue)
    }

    /// The contrast ratio `(L1 + 0.05) / (L2 + 0.05)`, L1 the lighter: 1 (identical) ... 21 (black on white).
    /// Symmetric in its arguments.
    public static func ratio(_ first: RGBColor, _ second: RGBColor) -> Double {
        ratio(luminance: luminance(first), luminance(second))
    }

    /// The contrast ratio of two relative luminances, each 0...1.
    public static func ratio(luminance first: Double, _ second: Double) -> Double {
        first > second ? (first + 0.05) / (second + 0.05) : (second + 0.05) / (first + 0.05)
    }
}
