import Foundation

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

    /// Writes the look as one JSON object value, e.g. after `writer.key("look")` in a larger response.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("accent", source: accent.source) { writer in
            writer.beginObject()
            writer.member("dark", accent.value.dark.hex)
            writer.member("light", accent.value.light.hex)
            writer.endObject()
        }
        writer.key("adjustments")
        writer.beginArray()
        for adjustment in palette.adjustments { adjustment.write(to: &writer) }
        writer.endArray()
        writer.field("appIcon", source: appIcon.source) { appIcon.value.write(to: &$0) }
        writer.field("appName", source: appName.source) { writer in
            if let name = appName.value { writer.string(name) } else { writer.null() }
        }
        writer.field("branding", source: branding.source) { $0.bool(branding.value) }
        writer.key("corners")
        writer.beginObject()
        writer.key("radius"); writer.number(corners.value.radius)
        writer.member("source", corners.source.rawValue)
        writer.member("value", corners.value.rawValue)
        writer.endObject()
        writer.key("diagnostics")
        writer.beginArray()
        for diagnostic in diagnostics { diagnostic.write(to: &writer) }
        writer.endArray()
        writer.field("font", source: font.source) { $0.string(font.value.rawValue) }
        writer.field("headerStyle", source: headerStyle.source) { $0.string(headerStyle.value.rawValue) }
        writer.key("palette")
        palette.write(to: &writer)
        writer.field("replyExpectation", source: replyExpectation.source) { replyExpectation.value.write(to: &$0) }
        writer.key("schema"); writer.number(Self.schemaVersion)
        writer.field("topics", source: topics.source) { writer in
            writer.beginArray()
            for topic in topics.value { topic.write(to: &writer) }
            writer.endArray()
        }
        writer.endObject()
    }
}

extension JSONWriter {
    /// `"name": {"source": …, "value": …}`.
    mutating func field(_ name: String, source: LookLayer, value: (inout JSONWriter) -> Void) {
        key(name)
        beginObject()
        member("source", source.rawValue)
        key("value")
        value(&self)
        endObject()
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
            writer.member("text", text)
        case .localized(let texts):
            writer.key("localized")
            writer.beginObject()
            for tag in texts.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) { writer.member(tag, texts[tag]!) }
            writer.endObject()
        case .catalog(let key, let english):
            writer.member("catalogKey", key)
            writer.member("text", english)
        }
        writer.endObject()
    }
}

extension Topic {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("id", id)
        writer.key("label")
        label.write(to: &writer)
        if let prefill {
            writer.key("prefill")
            prefill.write(to: &writer)
        }
        if let preset { writer.member("preset", preset) }
        writer.member("symbol", symbol)
        writer.endObject()
    }
}

extension AppIcon {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .bundle: writer.member("kind", "bundle")
        case .url(let url): writer.member("kind", "url"); writer.member("url", url)
        case .monogram(let letter): writer.member("kind", "monogram"); writer.member("letter", letter)
        case .glyph: writer.member("kind", "glyph")
        }
        writer.endObject()
    }
}

extension AppearancePalette {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("background", background.hex)
        writer.member("bubbleFill", bubbleFill.hex)
        writer.member("bubbleText", bubbleText.hex)
        writer.member("secondaryText", secondaryText.hex)
        writer.member("teamBubbleFill", teamBubbleFill.hex)
        writer.member("teamBubbleText", teamBubbleText.hex)
        writer.member("text", text.hex)
        writer.member("tint", tint.hex)
        writer.endObject()
    }
}

extension Palette {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("dark")
        dark.write(to: &writer)
        writer.key("increasedContrast")
        writer.beginObject()
        writer.key("dark")
        increasedContrast.dark.write(to: &writer)
        writer.key("light")
        increasedContrast.light.write(to: &writer)
        writer.endObject()
        writer.key("light")
        light.write(to: &writer)
        writer.endObject()
    }
}

extension ColorAdjustment {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("adjusted", adjusted.hex)
        writer.member("against", against.hex)
        writer.member("appearance", appearanceName)
        writer.key("deltaEOK"); writer.number((deltaEOK * 10_000).rounded() / 10_000)
        writer.member("direction", direction.rawValue)
        writer.key("hueShift"); writer.number((hueShift * 100).rounded() / 100)
        writer.key("minimumRatio"); writer.number(minimumRatio)
        writer.member("original", original.hex)
        writer.key("ratioAfter"); writer.number(Self.cut(ratioAfter, places: 3))
        writer.key("ratioBefore"); writer.number(Self.cut(ratioBefore, places: 3))
        writer.member("role", role.rawValue)
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
        writer.member("code", code)
        writer.member("field", field)
        writer.member("layer", layer.rawValue)
        writer.member("message", message)
        writer.member("severity", severity.rawValue)
        writer.endObject()
    }
}
