#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// APCA lightness contrast (Lc), the contrast method of the WCAG 3 drafts, with the APCA-W3 0.0.98G-4g constants.
/// **Advisory**: WCAG 2.x's ratio (``Contrast``) is what lookd's palette guarantees; Lc is reported beside it.
///
/// Lc is signed: positive for dark text on a light background, negative for light text on a dark one; about
/// -108 ... 106, and 0 when the two are too close to tell apart (|Lc| under 10 is clipped to 0).
/// Pure functions: thread-safe.
public enum APCA {
    /// The constants' name, as APCA's authors publish it.
    public static let version = "0.0.98G-4g"

    /// |Lc| APCA's bronze guidance wants for body text (columns of text at 16 px / 400), and what it prefers.
    public static let bodyTextMinimum = 75.0
    public static let bodyTextPreferred = 90.0

    /// Screen luminance Y, 0 (black) ... 1 (white): channels c/255 raised to a plain 2.4 power (no linear toe),
    /// weighted 0.2126729 R + 0.7151522 G + 0.0721750 B. Not WCAG's relative luminance.
    public static func screenLuminance(_ color: RGBColor) -> Double {
        0.2126729 * table[Int(color.red)] + 0.7151522 * table[Int(color.green)] + 0.0721750 * table[Int(color.blue)]
    }

    /// Lc of `text` on `background`, signed, unrounded (see ``APCA``). Not symmetric: the order matters.
    /// #888888 text on white is 63.06; white text on #888888 is -68.54.
    public static func lightnessContrast(text: RGBColor, background: RGBColor) -> Double {
        lightnessContrast(textLuminance: screenLuminance(text), backgroundLuminance: screenLuminance(background))
    }

    /// Lc from two screen luminances (``screenLuminance(_:)``), each 0...1.1; 0 for anything else.
    public static func lightnessContrast(textLuminance: Double, backgroundLuminance: Double) -> Double {
        guard (0...1.1).contains(textLuminance), (0...1.1).contains(backgroundLuminance) else { return 0 }
        let text = softClamp(textLuminance), background = softClamp(backgroundLuminance)
        guard abs(background - text) >= 0.0005 else { return 0 }
        if background > text {
            // Dark text on a light background ("normal polarity").
            let s = (pow(background, 0.56) - pow(text, 0.57)) * 1.14
            return s < 0.1 ? 0 : (s - 0.027) * 100
        }
        // Light text on a dark background ("reverse polarity").
        let s = (pow(background, 0.65) - pow(text, 0.62)) * 1.14
        return s > -0.1 ? 0 : (s + 0.027) * 100
    }

    /// What an |Lc| is enough for, by APCA's bronze-level guidance (each at or above its figure).
    public enum Use: String, Sendable, CaseIterable {
        /// ≥ 90: body text, preferred.
        case preferredBodyText
        /// ≥ 75: body text (the minimum for columns of text).
        case bodyText
        /// ≥ 60: content text that is not body text (at least 24 px normal or 16 px bold).
        case contentText
        /// ≥ 45: large text such as headlines (at least 36 px normal or 24 px bold).
        case largeText
        /// ≥ 30: spot text (placeholders, disabled), non-text elements.
        case spotText
        /// Under 30: not enough for any text.
        case insufficient

        /// The least |Lc| of this use.
        public var minimum: Double {
            switch self {
            case .preferredBodyText: 90
            case .bodyText: 75
            case .contentText: 60
            case .largeText: 45
            case .spotText: 30
            case .insufficient: 0
            }
        }

        /// The most demanding use `lc` (either sign) is enough for.
        public init(lc: Double) {
            self = Self.allCases.first { abs(lc) >= $0.minimum } ?? .insufficient
        }
    }

    /// APCA's black soft clamp: a luminance at or under 0.022 is raised by (0.022 − Y)^1.414.
    private static func softClamp(_ y: Double) -> Double {
        y > 0.022 ? y : y + pow(0.022 - y, 1.414)
    }

    private static let table: [Double] = (0...255).map { pow(Double($0) / 255, 2.4) }
}
