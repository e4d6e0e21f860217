/// A field's resolved value and the layer it came from.
public struct ResolvedField<Value: Hashable & Sendable>: Hashable, Sendable {
    public var value: Value
    public var source: LookLayer
}

/// The look the chat shows: every field's value with its source, the palette for light and dark with every
/// contrast adjustment, and a diagnostic for every value that was ignored.
public struct ResolvedLook: Hashable, Sendable {
    public var accent: ResolvedField<AccentColor>
    public var corners: ResolvedField<Corners>
    public var font: ResolvedField<FontStyle>
    public var headerStyle: ResolvedField<HeaderStyle>
    public var replyExpectation: ResolvedField<LocalizedText>
    public var topics: ResolvedField<[Topic]>
    /// nil when no layer names the app.
    public var appName: ResolvedField<String?>
    public var appIcon: ResolvedField<AppIcon>
    /// Whether the Free plan's "Chat by pingfront" lockup shows.
    public var branding: ResolvedField<Bool>
    public var palette: Palette
    public var diagnostics: [Diagnostic]
}
