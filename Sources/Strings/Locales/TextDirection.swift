/// The direction a locale's text runs in.
public enum TextDirection: String, Sendable, Codable {
    case leftToRight = "ltr"
    case rightToLeft = "rtl"
}
