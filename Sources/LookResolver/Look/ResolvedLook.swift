/// A field's resolved value and the layer it came from.
public struct ResolvedField<Value: Hashable & Sendable>: Hashable, Sendable {
    public var value: Value
    public var source: LookLayer

    public init(value: Value, source: LookLayer) {
        self.value = value
        self.source = source
    }
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

    /// A look as given, field by field: e.g. one read back from a server's JSON, or built by a test. Nothing is
    /// checked or derived (``Resolver`` is what resolves layers and derives the palette from the accent).
    public init(accent: ResolvedField<AccentColor>, corners: ResolvedField<Corners>, font: ResolvedField<FontStyle>,
                headerStyle: ResolvedField<HeaderStyle>, replyExpectation: ResolvedField<LocalizedText>,
                topics: ResolvedField<[Topic]>, appName: ResolvedField<String?>, appIcon: ResolvedField<AppIcon>,
                branding: ResolvedField<Bool>, palette: Palette, diagnostics: [Diagnostic]) {
        self.accent = accent
        self.corners = corners
        self.font = font
        self.headerStyle = headerStyle
        self.replyExpectation = replyExpectation
        self.topics = topics
        self.appName = appName
        self.appIcon = appIcon
        self.branding = branding
        self.palette = palette
        self.diagnostics = diagnostics
    }
}
