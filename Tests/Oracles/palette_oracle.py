#!/usr/bin/env python3
"""Expected palettes for PaletteOracleValues.swift, computed from the published formulas and docs/look.md's rules,
with nothing taken from lookd's code:

- WCAG 2.x relative luminance (sRGB linearisation with the 0.04045 threshold, weights 0.2126/0.7152/0.0722) and
  contrast ratio (L1 + 0.05) / (L2 + 0.05), compared unrounded (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio);
- OKLab and OKLCH from Björn Ottosson's published matrices (https://bottosson.github.io/posts/oklab/);
- the palette's rules as docs/look.md states them: bubble text white when white reaches 3:1 on the accent, the fill
  then deepened to the level's minimum against white; the tint darker on white, lighter on black, to the minimum;
  the fixed greys; the minimal hue-kept change (bisect OKLCH lightness at the accent's hue and chroma, chroma reduced
  only where sRGB cannot hold it, quantise to 8 bits and re-check strictly above the line, and where quantising moved
  the hue by more than 0.25° the closest passing colour within that tolerance in the ±3 neighbourhood).

Run:  python3 Tests/Oracles/palette_oracle.py > Tests/LookResolverTests/PaletteOracleValues.swift
"""
import math

ACCENTS = ["#007AFF", "#0A84FF", "#FFD60A", "#5E5CE6", "#AABBCC", "#FFFFFF", "#000000", "#777777", "#3550E6",
           "#34C759", "#FF2D55", "#FF9500", "#1DB954", "#E50914"]
WHITE, BLACK = (255, 255, 255), (0, 0, 0)
HUE_TOLERANCE = 0.25


def parse(hex_):
    return tuple(int(hex_[i:i + 2], 16) for i in (1, 3, 5))


def hexstr(rgb):
    return "#%02X%02X%02X" % rgb


def linearize(channel):
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance_linear(lin):
    r, g, b = (min(max(c, 0.0), 1.0) for c in lin)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def luminance(rgb):
    return luminance_linear([linearize(c) for c in rgb])


def ratio_l(l1, l2):
    hi, lo = max(l1, l2), min(l1, l2)
    return (hi + 0.05) / (lo + 0.05)


def ratio(a, b):
    return ratio_l(luminance(a), luminance(b))


def lab_from_linear(lin):
    r, g, b = lin
    l = math.copysign(abs(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3), 0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
    m = math.copysign(abs(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3), 0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
    s = math.copysign(abs(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3), 0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
    return (0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)


def linear_from_lab(lab):
    L, a, b = lab
    l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3
    m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3
    s = (L - 0.0894841775 * a - 1.2914855480 * b) ** 3
    return (4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
            -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
            -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s)


def lab(rgb):
    return lab_from_linear([linearize(c) for c in rgb])


def lch(lab_):
    L, a, b = lab_
    hue = math.degrees(math.atan2(b, a))
    return L, math.hypot(a, b), hue + 360 if hue < 0 else hue


def hue_difference(h1, h2):
    d = abs(h1 - h2) % 360
    return 360 - d if d > 180 else d


def distance(l1, l2):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(l1, l2)))


def in_gamut(lin):
    return all(-1e-9 <= c <= 1 + 1e-9 for c in lin)


def encode(linear):
    c = min(max(linear, 0.0), 1.0)
    e = 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return int(math.floor(e * 255 + 0.5))


def quantize(lin):
    return tuple(encode(c) for c in lin)


def on_hue(lightness, chroma, hue):
    """The colour at `lightness` on `hue` with the most chroma up to `chroma` that sRGB holds (chroma bisected)."""
    cos_h, sin_h = math.cos(math.radians(hue)), math.sin(math.radians(hue))
    full = linear_from_lab((lightness, chroma * cos_h, chroma * sin_h))
    if in_gamut(full):
        return full
    inside, inside_color, outside = 0.0, linear_from_lab((lightness, 0.0, 0.0)), chroma
    for _ in range(20):
        middle = (inside + outside) / 2
        candidate = linear_from_lab((lightness, middle * cos_h, middle * sin_h))
        if in_gamut(candidate):
            inside, inside_color = middle, candidate
        else:
            outside = middle
    return inside_color


def adjust(color, darker, minimum, other):
    other_l = luminance(other)
    if ratio_l(luminance(color), other_l) >= minimum:
        return color
    L0, C0, H0 = lch(lab(color))
    passing, failing = (0.0 if darker else 1.0), L0
    for _ in range(30):
        middle = (passing + failing) / 2
        if ratio_l(luminance_linear(on_hue(middle, C0, H0)), other_l) >= minimum:
            passing = middle
        else:
            failing = middle
    lightness, step = passing, (-0.001 if darker else 0.001)
    result = quantize(on_hue(lightness, C0, H0))
    while not ratio(result, other) > minimum:
        lightness += step
        result = quantize(on_hue(lightness, C0, H0))
    if C0 > 0.0001 and hue_difference(lch(lab(result))[2], H0) > HUE_TOLERANCE:
        origin = lab(color)
        candidates = []
        for dr in range(-3, 4):
            for dg in range(-3, 4):
                for db in range(-3, 4):
                    rgb = (result[0] + dr, result[1] + dg, result[2] + db)
                    if min(rgb) < 0 or max(rgb) > 255 or not ratio_l(luminance(rgb), other_l) > minimum:
                        continue
                    lab_ = lab(rgb)
                    candidates.append((hue_difference(lch(lab_)[2], H0), distance(lab_, origin), rgb))
        within = [c for c in candidates if c[0] <= HUE_TOLERANCE]
        result = min(within, key=lambda c: c[1])[2] if within else min(candidates, key=lambda c: (c[0], c[1]))[2]
    return result


def palette(appearance, increased, accent, adjustments):
    minimum = 7.0 if increased else 4.5
    light = appearance == "light"
    background = WHITE if light else BLACK
    name = ("increasedContrast." if increased else "") + appearance
    fill, text = accent, BLACK
    if ratio(WHITE, accent) >= 3.0:
        text = WHITE
        fill = adjust(accent, True, minimum, WHITE)
        if fill != accent:
            adjustments.append(change("bubbleFill", name, accent, fill, WHITE, minimum))
    tint = adjust(accent, light, minimum, background)
    if tint != accent:
        adjustments.append(change("tint", name, accent, tint, background, minimum))
    secondary = {("light", False): "#6C6C70", ("dark", False): "#8E8E93", ("light", True): "#58585C", ("dark", True): "#95959A"}
    return {"background": hexstr(background), "bubbleFill": hexstr(fill), "bubbleText": hexstr(text), "tint": hexstr(tint),
            "text": "#000000" if light else "#FFFFFF", "secondaryText": secondary[(appearance, increased)],
            "teamBubbleFill": "#E9E9EB" if light else "#262628", "teamBubbleText": "#000000" if light else "#FFFFFF"}


def change(role, name, original, adjusted, against, minimum):
    before, after = lch(lab(original)), lch(lab(adjusted))
    return {"role": role, "appearance": name, "original": hexstr(original), "adjusted": hexstr(adjusted), "against": hexstr(against),
            "minimumRatio": minimum, "ratioBefore": ratio(original, against), "ratioAfter": ratio(adjusted, against),
            "deltaEOK": distance(lab(original), lab(adjusted)), "hueShift": hue_difference(before[2], after[2])}


def swift_palette(p):
    return "[" + ", ".join('"%s": "%s"' % (k, p[k]) for k in sorted(p)) + "]"


print("// Generated by Tests/Oracles/palette_oracle.py from the published WCAG and OKLab formulas and docs/look.md's")
print("// palette rules; nothing here comes from lookd's code. Regenerate with the script, never from lookd's output.")
print()
print("/// One accent's four palettes (role → colour) and its adjustments, as the oracle computes them.")
print("struct PaletteOracleCase: Sendable {")
print("    var accent: String")
print("    var light: [String: String]")
print("    var dark: [String: String]")
print("    var increasedLight: [String: String]")
print("    var increasedDark: [String: String]")
print("    /// (role, palette name, adjusted colour, ratio before, ratio after, ΔE-OK, hue shift in degrees)")
print("    var adjustments: [(role: String, appearance: String, adjusted: String, ratioBefore: Double, ratioAfter: Double, deltaEOK: Double, hueShift: Double)]")
print("}")
print()
print("let paletteOracleCases: [PaletteOracleCase] = [")
for accent in ACCENTS:
    rgb = parse(accent)
    adjustments = []
    pals = [palette("light", False, rgb, adjustments), palette("dark", False, rgb, adjustments),
            palette("light", True, rgb, adjustments), palette("dark", True, rgb, adjustments)]
    print("    PaletteOracleCase(")
    print('        accent: "%s",' % accent)
    for label, p in zip(["light", "dark", "increasedLight", "increasedDark"], pals):
        print("        %s: %s," % (label, swift_palette(p)))
    print("        adjustments: [")
    for a in adjustments:
        print('            ("%s", "%s", "%s", %.17g, %.17g, %.17g, %.17g),' % (a["role"], a["appearance"], a["adjusted"], a["ratioBefore"], a["ratioAfter"], a["deltaEOK"], a["hueShift"]))
    print("        ]")
    print("    ),")
print("]")
