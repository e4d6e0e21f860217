/// A text size of iOS Dynamic Type the preview draws the chat at: body text 17 pt at the default size (Large),
/// 23 pt at the largest standard size (xxxLarge) and 53 pt at the largest accessibility size (AX5); every text
/// of the chat scales by the same factor (icons do not).
public enum TextSize: String, Sendable, CaseIterable, Hashable {
    /// Large, the default: body 17 pt.
    case standard = "default"
    /// xxxLarge, the largest size without the accessibility sizes: body 23 pt.
    case large
    /// Accessibility 5 (AX5), the largest size: body 53 pt.
    case largestAccessibility = "ax5"

    /// The body text's size in points.
    public var bodyPoints: Int {
        switch self {
        case .standard: 17
        case .large: 23
        case .largestAccessibility: 53
        }
    }

    /// The factor every text size is multiplied by: body points / 17.
    public var scale: Double { Double(bodyPoints) / 17 }

    var label: String {
        switch self {
        case .standard: "Default text (17 pt)"
        case .large: "xxxLarge text (23 pt)"
        case .largestAccessibility: "AX5 text (53 pt)"
        }
    }
}
