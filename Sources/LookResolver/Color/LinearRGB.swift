import Foundation

/// sRGB with linear-light channels, each nominally 0...1 (values outside are out of the sRGB gamut).
public struct LinearRGB: Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The exact linear value of an 8-bit sRGB channel, with WCAG 2.x's transfer function
    /// (`c <= 0.04045 ? c/12.92 : ((c+0.055)/1.055)^2.4`, c = channel/255).
    public static func linearize(_ channel: UInt8) -> Double { linearTable[Int(channel)] }

    public init(_ color: RGBColor) {
        self.init(red: Self.linearize(color.red), green: Self.linearize(color.green), blue: Self.linearize(color.blue))
    }

    /// True when every channel is within 0...1 (with a tolerance of 1e-9 for rounding).
    public var isInGamut: Bool {
        let low = -1e-9, high = 1 + 1e-9
        return red >= low && red <= high && green >= low && green <= high && blue >= low && blue <= high
    }

    /// WCAG 2.x relative luminance, 0 (black) ... 1 (white), of this colour clamped to the gamut.
    public var relativeLuminance: Double {
        0.2126 * min(max(red, 0), 1) + 0.7152 * min(max(green, 0), 1) + 0.0722 * min(max(blue, 0), 1)
    }

    /// The nearest 8-bit sRGB colour (channels clamped to the gamut, then rounded).
    public var quantized: RGBColor {
        RGBColor(red: Self.encode(red), green: Self.encode(green), blue: Self.encode(blue))
    }

    private static func encode(_ linear: Double) -> UInt8 {
        let clamped = min(max(linear, 0), 1)
        let encoded = clamped <= 0.0031308 ? 12.92 * clamped : 1.055 * pow(clamped, 1 / 2.4) - 0.055
        return UInt8((encoded * 255).rounded())
    }

    private static let linearTable: [Double] = (0...255).map { channel in
        let c = Double(channel) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
}
