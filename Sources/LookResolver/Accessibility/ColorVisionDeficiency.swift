/// The three dichromacies, simulated with Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for
/// Simulation of Color Vision Deficiency", IEEE TVCG 15(6), at severity 1.0: a 3×3 matrix applied to *linear*
/// sRGB (``LinearRGB``), the result clamped to the gamut and re-encoded. Pure values: thread-safe.
public enum ColorVisionDeficiency: String, Sendable, CaseIterable, Hashable {
    /// No working L (red) cones: reds darken and red–green differences vanish.
    case protanopia
    /// No working M (green) cones: red–green differences vanish.
    case deuteranopia
    /// No working S (blue) cones: blue–yellow differences vanish (Machado's model is least accurate here).
    case tritanopia

    /// True for the two red–green deficiencies.
    public var isRedGreen: Bool { self != .tritanopia }

    /// The paper's severity-1.0 matrix, row-major: output (R, G, B) = matrix × input (R, G, B), linear.
    public var matrix: [Double] {
        switch self {
        case .protanopia: [0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998]
        case .deuteranopia: [0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.011820, 0.042940, 0.968881]
        case .tritanopia: [1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.303900]
        }
    }

    /// The matrix applied to a linear colour; the result may leave the gamut (channels under 0 or over 1).
    public func simulate(_ color: LinearRGB) -> LinearRGB {
        let m = matrix
        return LinearRGB(
            red: m[0] * color.red + m[1] * color.green + m[2] * color.blue,
            green: m[3] * color.red + m[4] * color.green + m[5] * color.blue,
            blue: m[6] * color.red + m[7] * color.green + m[8] * color.blue
        )
    }

    /// How `color` looks to a person with this deficiency, as the nearest 8-bit sRGB colour (clamped to the gamut).
    public func simulate(_ color: RGBColor) -> RGBColor {
        simulate(LinearRGB(color)).quantized
    }
}
