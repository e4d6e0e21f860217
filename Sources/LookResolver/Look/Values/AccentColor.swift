/// The brand colour, per appearance. Given as one colour, it is used for both (and the dark palette is then
/// nudged for the black background like any other accent).
public struct AccentColor: Hashable, Sendable {
    public var light: RGBColor
    public var dark: RGBColor

    public init(light: RGBColor, dark: RGBColor) {
        self.light = light
        self.dark = dark
    }

    public init(_ both: RGBColor) { self.init(light: both, dark: both) }

    /// One combine of both colours (the palette memo hashes an accent on every resolve).
    public func hash(into hasher: inout Hasher) { hasher.combine(UInt64(light.packed) << 24 | UInt64(dark.packed)) }

    /// iOS systemBlue: `#007AFF` light, `#0A84FF` dark.
    public static let systemBlue = AccentColor(
        light: RGBColor(red: 0x00, green: 0x7A, blue: 0xFF),
        dark: RGBColor(red: 0x0A, green: 0x84, blue: 0xFF)
    )
}
