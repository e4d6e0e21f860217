import Foundation
import StableJSON

/// The wire format (documented in docs/look.md, "The resolved look"). Written by StableJSON's ``JSONWriter``
/// straight into bytes, members in the order of their keys' UTF-8 bytes, and nothing volatile (no time, no
/// random id), so equal looks encode to identical bytes and a strong ETag can be derived from them. Ratios are
/// cut (never rounded up) to 3 decimals; ΔE-OK and hue shifts are rounded to 4 and 2.
///
/// `palette` has `light`, `dark` and `increasedContrast` (`{"light", "dark"}`, the 7:1 palettes); an adjustment's
/// `appearance` is `light`, `dark`, `increasedContrast.light` or `increasedContrast.dark`. The increased-contrast
/// keys were added without changing ``schemaVersion``: a reader that ignores unknown keys keeps working.
extension ResolvedLook {
    /// The version of this format. It grows only when a change would break a reader.
    public static let schemaVersion = 1

    /// The look as stable, compact JSON bytes. Pure; about 2 KB.
    public func jsonBytes() -> [UInt8] {
        var writer = JSONWriter(capacity: 4_096)
        write(to: &writer)
        return writer.bytes
    }

    /// The look as stable, compact JSON bytes (``jsonBytes()`` as `Data`).
    public func jsonData() -> Data { Data(jsonBytes()) }

    /// The look as a JSON tree, for embedding in a larger response (the bytes of ``jsonBytes()`` read back).
    public var jsonValue: JSONValue {
        // The writer's output is always valid JSON, so reading it back cannot fail.
        (try? JSONReader.read(jsonBytes())) ?? .null
    }

    /// Writes the look as one JSON object value, e.g. after `writer.key(static: "look")` in a larger response.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.beginField("accent", source: accent.source)
        writer.beginObject()
        writer.member(static: "dark", accent.value.dark)
        writer.member(static: "light", accent.value.light)
        writer.endObject()
        writer.endObject()
        writer.key(static: "adjustments")
        writer.beginArray()
        for adjustment in palette.adjustments { adjustment.write(to: &writer) }
        writer.endArray()
        writer.beginField("appIcon", source: appIcon.source)
        appIcon.value.write(to: &writer)
        writer.endObject()
        writer.beginField("appName", source: appName.source)
        if let name = appName.value { writer.string(name) } else { writer.null() }
        writer.endObject()
        writer.beginField("branding", source: branding.source)
        writer.bool(branding.value)
        writer.endObject()
        writer.key(static: "corners")
        writer.beginObject()
        writer.key(static: "radius"); writer.number(corners.value.radius)
        writer.member(static: "source", corners.source.rawValue)
        writer.member(static: "value", corners.value.rawValue)
        writer.endObject()
        writer.key(static: "diagnostics")
        writer.beginArray()
        for diagnostic in diagnostics { diagnostic.write(to: &writer) }
        writer.endArray()
        writer.beginField("font", source: font.source)
        writer.string(font.value.rawValue)
        writer.endObject()
        writer.beginField("headerStyle", source: headerStyle.source)
        writer.string(headerStyle.value.rawValue)
        writer.endObject()
        writer.key(static: "palette")
        palette.write(to: &writer)
        writer.beginField("replyExpectation", source: replyExpectation.source)
        replyExpectation.value.write(to: &writer)
        writer.endObject()
        writer.key(static: "schema"); writer.number(Self.schemaVersion)
        writer.beginField("topics", source: topics.source)
        writer.beginArray()
        for topic in topics.value { topic.write(to: &writer) }
        writer.endArray()
        writer.endObject()
        writer.endObject()
    }
}

extension JSONWriter {
    /// `"name": "#RRGGBB"`, the colour written in place (``RGBColor/writeHex(to:)``).
    mutating func member(static name: StaticString, _ color: RGBColor) {
        member(static: name, unescapedCount: 7) { color.writeHex(to: $0) }
    }

    /// `"name": {"source": …, "value": ` — the caller writes the value, then ends the object.
    mutating func beginField(_ name: StaticString, source: LookLayer) {
        key(static: name)
        beginObject()
        member(static: "source", source.rawValue)
        key(static: "value")
    }
}

extension LocalizedText {
    /// `{"text": …}`, `{"localized": {tag: text}}`, or `{"catalogKey": …, "text": English}`.
    public var jsonValue: JSONValue {
        var writer = JSONWriter(capacity: 256)
        write(to: &writer)
        return (try? JSONReader.read(writer.bytes)) ?? .null
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .text(let text):
            writer.member(static: "text", text)
        case .localized(let texts):
            writer.key(static: "localized")
            writer.beginObject()
            // In the tags' order: the UTF-8 order, as language tags are ASCII.
            texts.forEach { tag, text in writer.member(tag, text) }
            writer.endObject()
        case .catalog(let key, let english):
            writer.member(static: "catalogKey", key)
            writer.member(static: "text", english)
        }
        writer.endObject()
    }
}

extension Topic {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member(static: "id", id)
        writer.key(static: "label")
        label.write(to: &writer)
        if let prefill {
            writer.key(static: "prefill")
            prefill.write(to: &writer)
        }
        if let preset { writer.member(static: "preset", preset) }
        writer.member(static: "symbol", symbol)
        writer.endObject()
    }
}

extension AppIcon {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .bundle: writer.member(static: "kind", static: "bundle")
        case .url(let url): writer.member(static: "kind", static: "url"); writer.member(static: "url", url)
        case .monogram(let letter): writer.member(static: "kind", static: "monogram"); writer.member(static: "letter", letter)
        case .glyph: writer.member(static: "kind", static: "glyph")
        }
        writer.endObject()
    }
}

extension AppearancePalette {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member(static: "background", background)
        writer.member(static: "bubbleFill", bubbleFill)
        writer.member(static: "bubbleText", bubbleText)
        writer.member(static: "secondaryText", secondaryText)
        writer.member(static: "teamBubbleFill", teamBubbleFill)
        writer.member(static: "teamBubbleText", teamBubbleText)
        writer.member(static: "text", text)
        writer.member(static: "tint", tint)
        writer.endObject()
    }
}

extension Palette {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(static: "dark")
        dark.write(to: &writer)
        writer.key(static: "increasedContrast")
        writer.beginObject()
        writer.key(static: "dark")
        increasedContrast.dark.write(to: &writer)
        writer.key(static: "light")
        increasedContrast.light.write(to: &writer)
        writer.endObject()
        writer.key(static: "light")
        light.write(to: &writer)
        writer.endObject()
    }
}

extension ColorAdjustment {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member(static: "adjusted", adjusted)
        writer.member(static: "against", against)
        writer.member(static: "appearance", appearanceName)
        // Decimals written from their scaled integers: the same text as the rounded or cut Double would give.
        writer.key(static: "deltaEOK"); writer.number(Int((deltaEOK * 10_000).rounded()), places: 4)
        writer.member(static: "direction", direction.rawValue)
        writer.key(static: "hueShift"); writer.number(Int((hueShift * 100).rounded()), places: 2)
        writer.key(static: "minimumRatio"); writer.number(Int((minimumRatio * 10).rounded()), places: 1)
        writer.member(static: "original", original)
        writer.key(static: "ratioAfter"); writer.number(Int((ratioAfter * 1_000).rounded(.down)), places: 3)
        writer.key(static: "ratioBefore"); writer.number(Int((ratioBefore * 1_000).rounded(.down)), places: 3)
        writer.member(static: "role", role.rawValue)
        writer.endObject()
    }


    /// `value` truncated toward zero to `places` decimals: a ratio shown is never above the real one.
    static func cut(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded(.down) / scale
    }
}

extension Diagnostic {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member(static: "code", code.rawValue)
        writer.member(static: "field", field)
        writer.member(static: "layer", layer.rawValue)
        writer.member(static: "message", message)
        writer.member(static: "severity", severity.rawValue)
        writer.endObject()
    }
}
