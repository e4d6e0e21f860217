import Foundation

/// The wire format (documented in the README, "The resolved look"). Keys are sorted and nothing volatile (no
/// time, no random id) is included, so equal looks encode to identical bytes and a strong ETag can be derived
/// from them. Ratios are cut (never rounded up) to 3 decimals; ΔE-OK and hue shifts are rounded to 4 and 2.
extension ResolvedLook {
    /// The version of this format. It grows only when a change would break a reader.
    public static let schemaVersion = 1

    /// The look as stable, compact JSON bytes.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a tree of strings, numbers and booleans cannot fail.
        return (try? encoder.encode(jsonValue)) ?? Data()
    }

    /// The look as a JSON tree, for embedding in a larger response.
    public var jsonValue: JSONValue {
        .object([
            "schema": .number(Double(Self.schemaVersion)),
            "accent": field(accent.source, .object(["light": .string(accent.value.light.hex), "dark": .string(accent.value.dark.hex)])),
            "corners": .object(["value": .string(corners.value.rawValue), "radius": .number(Double(corners.value.radius)), "source": .string(corners.source.rawValue)]),
            "font": field(font.source, .string(font.value.rawValue)),
            "headerStyle": field(headerStyle.source, .string(headerStyle.value.rawValue)),
            "replyExpectation": field(replyExpectation.source, replyExpectation.value.jsonValue),
            "topics": field(topics.source, .array(topics.value.map(\.jsonValue))),
            "appName": field(appName.source, appName.value.map(JSONValue.string) ?? .null),
            "appIcon": field(appIcon.source, appIcon.value.jsonValue),
            "branding": field(branding.source, .bool(branding.value)),
            "palette": .object(["light": palette.light.jsonValue, "dark": palette.dark.jsonValue]),
            "adjustments": .array(palette.adjustments.map(\.jsonValue)),
            "diagnostics": .array(diagnostics.map(\.jsonValue)),
        ])
    }

    private func field(_ source: LookLayer, _ value: JSONValue) -> JSONValue {
        .object(["value": value, "source": .string(source.rawValue)])
    }
}

extension LocalizedText {
    /// `{"text": …}`, `{"localized": {tag: text}}`, or `{"catalogKey": …, "text": English}`.
    public var jsonValue: JSONValue {
        switch self {
        case .text(let text): .object(["text": .string(text)])
        case .localized(let texts): .object(["localized": .object(texts.mapValues(JSONValue.string))])
        case .catalog(let key, let english): .object(["catalogKey": .string(key), "text": .string(english)])
        }
    }
}

extension Topic {
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "label": label.jsonValue, "symbol": .string(symbol)]
        if let prefill { members["prefill"] = prefill.jsonValue }
        if let preset { members["preset"] = .string(preset) }
        return .object(members)
    }
}

extension AppIcon {
    var jsonValue: JSONValue {
        switch self {
        case .bundle: .object(["kind": .string("bundle")])
        case .url(let url): .object(["kind": .string("url"), "url": .string(url)])
        case .monogram(let letter): .object(["kind": .string("monogram"), "letter": .string(letter)])
        case .glyph: .object(["kind": .string("glyph")])
        }
    }
}

extension AppearancePalette {
    var jsonValue: JSONValue {
        .object([
            "background": .string(background.hex),
            "bubbleFill": .string(bubbleFill.hex),
            "bubbleText": .string(bubbleText.hex),
            "tint": .string(tint.hex),
            "text": .string(text.hex),
            "secondaryText": .string(secondaryText.hex),
            "teamBubbleFill": .string(teamBubbleFill.hex),
            "teamBubbleText": .string(teamBubbleText.hex),
        ])
    }
}

extension ColorAdjustment {
    var jsonValue: JSONValue {
        .object([
            "role": .string(role.rawValue),
            "appearance": .string(appearance.rawValue),
            "direction": .string(direction.rawValue),
            "original": .string(original.hex),
            "adjusted": .string(adjusted.hex),
            "against": .string(against.hex),
            "minimumRatio": .number(minimumRatio),
            "ratioBefore": .number(Self.cut(ratioBefore, places: 3)),
            "ratioAfter": .number(Self.cut(ratioAfter, places: 3)),
            "deltaEOK": .number((deltaEOK * 10_000).rounded() / 10_000),
            "hueShift": .number((hueShift * 100).rounded() / 100),
        ])
    }

    /// `value` truncated toward zero to `places` decimals: a ratio shown is never above the real one.
    static func cut(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded(.down) / scale
    }
}

extension Diagnostic {
    var jsonValue: JSONValue {
        .object([
            "layer": .string(layer.rawValue),
            "field": .string(field),
            "code": .string(code),
            "message": .string(message),
            "severity": .string(severity.rawValue),
        ])
    }
}
