/// Options for formatting a message.
public struct FormatOptions: Sendable, Hashable {
    /// Wrap string arguments used as `{name}` in FSI…PDI (U+2068…U+2069). Default true; turn off only for
    /// output that is never shown in bidirectional context (e.g. logs) or is isolated by other means.
    public var isolateStrings: Bool

    public init(isolateStrings: Bool = true) {
        self.isolateStrings = isolateStrings
    }

    public static let `default` = FormatOptions()
}
