import LookResolver

/// The query parameters a preview takes, shared by the CLI and the HTTP route.
public enum PreviewRequest {
    /// The phones for an `appearance` value, in page order; nil for anything else:
    /// - `light`, `dark`, `both` (light then dark): the standard palette (4.5:1);
    /// - `increased-light`, `increased-dark`, `increased` (light then dark): the increased-contrast palette (7:1);
    /// - `all`: the four, standard light and dark, then increased-contrast light and dark.
    public static func panels(_ value: String) -> [PreviewPanel]? {
        switch value {
        case "light": [PreviewPanel(.light)]
        case "dark": [PreviewPanel(.dark)]
        case "both": [PreviewPanel(.light), PreviewPanel(.dark)]
        case "increased-light": [PreviewPanel(.light, .increased)]
        case "increased-dark": [PreviewPanel(.dark, .increased)]
        case "increased": [PreviewPanel(.light, .increased), PreviewPanel(.dark, .increased)]
        case "all": [PreviewPanel(.light), PreviewPanel(.dark), PreviewPanel(.light, .increased), PreviewPanel(.dark, .increased)]
        default: nil
        }
    }

    /// The accepted `appearance` values (each gives ``panels(_:)`` a non-nil answer), for the OpenAPI document and errors.
    public static let appearanceValues = ["light", "dark", "both", "increased-light", "increased-dark", "increased", "all"]

    /// Why `value` is not an appearance, for either face's error.
    public static func appearanceProblem(_ value: String) -> String {
        "appearance must be one of \(appearanceValues.joined(separator: ", ")), not '\(value)'"
    }
}
