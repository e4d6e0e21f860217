import LookResolver

/// The query parameters a preview takes, shared by the CLI and the HTTP route.
public enum PreviewRequest {
    /// `light`, `dark` or `both` (light then dark); nil for anything else.
    public static func appearances(_ value: String) -> [Appearance]? {
        switch value {
        case "light": [.light]
        case "dark": [.dark]
        case "both": [.light, .dark]
        default: nil
        }
    }

    /// Why `value` is not an appearance, for either face's error.
    public static func appearanceProblem(_ value: String) -> String {
        "appearance must be light, dark or both, not '\(value)'"
    }
}
