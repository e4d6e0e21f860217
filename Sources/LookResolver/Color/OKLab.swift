import Foundation

/// A colour in Björn Ottosson's OKLab space: `lightness` 0 (black) ... 1 (white); `a` green–red and
/// `b` blue–yellow axes, roughly -0.4 ... 0.4 for sRGB colours.
public struct OKLab: Hashable, Sendable {
    public var lightness: Double
    public var a: Double
    public var b: Double

    public init(lightness: Double, a: Double, b: Double) {
        self.lightness = lightness
        self.a = a
        self.b = b
    }

    public init(_ color: RGBColor) { self.init(LinearRGB(color)) }

    public init(_ rgb: LinearRGB) {
        let l = cbrt(0.4122214708 * rgb.red + 0.5363325363 * rgb.green + 0.0514459929 * rgb.blue)
        let m = cbrt(0.2119034982 * rgb.red + 0.6806995451 * rgb.green + 0.1073969566 * rgb.blue)
        let s = cbrt(0.0883024619 * rgb.red + 0.2817188376 * rgb.green + 0.6299787005 * rgb.blue)
        lightness = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
        a = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
        b = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
    }

    /// This colour in linear sRGB; channels fall outside 0...1 when it is out of the sRGB gamut.
    public var linearRGB: LinearRGB {
        let l0 = lightness + 0.3963377774 * a + 0.2158037573 * b
        let m0 = lightness - 0.1055613458 * a - 0.0638541728 * b
        let s0 = lightness - 0.0894841775 * a - 1.2914855480 * b
        let l = l0 * l0 * l0, m = m0 * m0 * m0, s = s0 * s0 * s0
        return LinearRGB(
            red: 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
            green: -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
            blue: -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s
        )
    }

    /// ΔE-OK: the Euclidean distance in OKLab. 0 for identical colours; about 0.02 is a just-noticeable difference.
    public func distance(to other: OKLab) -> Double {
        let dl = lightness - other.lightness, da = a - other.a, db = b - other.b
        return (dl * dl + da * da + db * db).squareRoot()
    }
}

/// OKLab in polar form: `lightness` 0...1, `chroma` ≥ 0 (sRGB colours reach about 0.32), `hue` in degrees 0..<360.
/// The hue of a colour with (near) zero chroma is meaningless.
public struct OKLCH: Hashable, Sendable {
    public var lightness: Double
    public var chroma: Double
    public var hue: Double

    public init(lightness: Double, chroma: Double, hue: Double) {
        self.lightness = lightness
        self.chroma = chroma
        self.hue = hue
    }

    public init(_ lab: OKLab) {
        lightness = lab.lightness
        chroma = (lab.a * lab.a + lab.b * lab.b).squareRoot()
        let degrees = atan2(lab.b, lab.a) * 180 / Double.pi
        hue = degrees < 0 ? degrees + 360 : degrees
    }

    public init(_ color: RGBColor) { self.init(OKLab(color)) }

    public var lab: OKLab {
        let radians = hue * Double.pi / 180
        return OKLab(lightness: lightness, a: chroma * cos(radians), b: chroma * sin(radians))
    }

    /// The smallest angle between two hues, in degrees, 0...180.
    public static func hueDifference(_ first: Double, _ second: Double) -> Double {
        let difference = abs(first - second).truncatingRemainder(dividingBy: 360)
        return difference > 180 ? 360 - difference : difference
    }
}
