import Foundation
import Testing
@testable import LookResolver
import StableJSON

/// Every field × every combination of layers that set it, the icon exception, fall-through and unknown input.
@Suite("Per-field precedence", .timeLimit(.minutes(10)))
struct PrecedenceTests {
    /// A valid value per field and layer (distinct, so the winner is visible), and how to read the resolved value back.
    struct FieldCase: @unchecked Sendable {
        let field: LookField
        let values: [LookLayer: JSONValue]
        let read: (ResolvedLook) -> (JSONValue, LookLayer)
    }

    static let cases: [FieldCase] = [
        FieldCase(field: .accent, values: [.dashboard: .string("#3550E6"), .code: .string("#AF52DE"), .inferred: .string("#34C759")]) {
            (.string($0.accent.value.light.hex), $0.accent.source)
        },
        FieldCase(field: .corners, values: [.dashboard: .string("square"), .code: .string("soft")]) { (.string($0.corners.value.rawValue), $0.corners.source) },
        FieldCase(field: .font, values: [.dashboard: .string("serif"), .code: .string("rounded")]) { (.string($0.font.value.rawValue), $0.font.source) },
        FieldCase(field: .headerStyle, values: [.dashboard: .string("app"), .code: .string("person")]) { (.string($0.headerStyle.value.rawValue), $0.headerStyle.source) },
        FieldCase(field: .replyExpectation, values: [.dashboard: .string("Within minutes"), .code: .string("Within hours")]) {
            (.string($0.replyExpectation.value.text(preferring: [])), $0.replyExpectation.source)
        },
        FieldCase(field: .topics, values: [.dashboard: .array([.string("bug")]), .code: .array([.string("idea"), .string("billing")])]) {
            (.array($0.topics.value.map { .string($0.id) }), $0.topics.source)
        },
        FieldCase(field: .appName, values: [.dashboard: .string("Ledgerly"), .code: .string("Ledgerly Dev"), .inferred: .string("ledgerly-ios")]) {
            ($0.appName.value.map(JSONValue.string) ?? .null, $0.appName.source)
        },
        FieldCase(field: .branding, values: [.dashboard: .bool(false)]) { (.bool($0.branding.value), $0.branding.source) },
    ]

    static let defaults: [LookField: JSONValue] = [
        .accent: .string("#007AFF"), .corners: .string("round"), .font: .string("system"), .headerStyle: .string("team"),
        .replyExpectation: .string("Usually replies within a day"), .topics: .array([]), .appName: .null, .branding: .bool(true),
    ]

    @Test("the highest layer that sets a field wins, for every subset of layers", arguments: cases)
    func everyCombination(_ fieldCase: FieldCase) {
        let layers = LookLayer.inputs.filter { fieldCase.values[$0] != nil }
        for mask in 0..<(1 << layers.count) {
            let present = layers.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element)
            var input = LookLayers()
            for layer in present {
                let object = JSONValue.object([fieldCase.field.rawValue: fieldCase.values[layer]!])
                switch layer {
                case .dashboard: input.dashboard = object
                case .code: input.code = object
                default: input.inferred = object
                }
            }
            let look = Resolver().resolve(input)
            let (value, source) = fieldCase.read(look)
            if let winner = present.first {
                #expect(source == winner, "\(fieldCase.field) with \(present)")
                #expect(value == fieldCase.values[winner]!, "\(fieldCase.field) with \(present)")
            } else {
                #expect(source == .default)
                #expect(value == Self.defaults[fieldCase.field]!)
            }
            #expect(look.diagnostics.isEmpty, "\(look.diagnostics)")
        }
    }

    @Test("fields are resolved independently: each from its own highest layer")
    func independentFields() {
        let look = Resolver().resolve(LookLayers(
            dashboard: .object(["corners": .string("square")]),
            code: .object(["accent": .string("#AF52DE"), "font": .string("serif")]),
            inferred: .object(["accent": .string("#34C759"), "appName": .string("Ledgerly")])
        ))
        #expect(look.corners.source == .dashboard && look.corners.value == .square)
        #expect(look.accent.source == .code && look.accent.value.light.hex == "#AF52DE")
        #expect(look.font.source == .code && look.font.value == .serif)
        #expect(look.appName.source == .inferred && look.appName.value == "Ledgerly")
        #expect(look.headerStyle.source == .default)
    }

    @Test("app icon: bundle icon, then the dashboard's URL, then the name's first grapheme, then a glyph")
    func appIconOrder() {
        let url = JSONValue.string("https://cdn.example.com/icon.png")
        func icon(_ dashboard: [String: JSONValue], _ code: [String: JSONValue] = [:], _ inferred: [String: JSONValue] = [:]) -> ResolvedField<AppIcon> {
            Resolver().resolve(LookLayers(dashboard: .object(dashboard), code: .object(code), inferred: .object(inferred))).appIcon
        }
        #expect(icon(["appIconUrl": url], [:], ["hasBundleIcon": .bool(true)]) == ResolvedField(value: .bundle, source: .inferred))
        #expect(icon(["appIconUrl": url], [:], ["hasBundleIcon": .bool(false)]) == ResolvedField(value: .url("https://cdn.example.com/icon.png"), source: .dashboard))
        #expect(icon([:], ["appName": .string("élan")]) == ResolvedField(value: .monogram("É"), source: .code))
        #expect(icon(["appName": .string("Élan")]) == ResolvedField(value: .monogram("É"), source: .dashboard))
        #expect(icon([:], [:], ["appName": .string("🦊 Fox")]) == ResolvedField(value: .monogram("🦊"), source: .inferred))
        #expect(icon([:], [:], ["appName": .string("👩‍👩‍👧 Family")]).value == .monogram("👩‍👩‍👧"))
        #expect(icon([:]) == ResolvedField(value: .glyph, source: .default))
        // A bad URL falls through to the monogram.
        #expect(icon(["appIconUrl": .string("http://insecure.example.com/i.png"), "appName": .string("Ledgerly")]).value == .monogram("L"))
    }

    @Test("an invalid value falls through to the next layer, for that field only, with a diagnostic")
    func fallThrough() {
        let look = Resolver().resolve(LookLayers(
            dashboard: .object(["accent": .string("#12345"), "corners": .string("soft")]),
            code: .object(["accent": .object(["light": .string("#3550E6"), "dark": .string("#7D91FF")])])
        ))
        #expect(look.accent.source == .code)
        #expect(look.accent.value == AccentColor(light: RGBColor(hex: "#3550E6")!, dark: RGBColor(hex: "#7D91FF")!))
        #expect(look.corners.source == .dashboard)
        #expect(look.diagnostics.map(\.code.rawValue) == ["invalid_color"])
        #expect(look.diagnostics.first?.layer == .dashboard && look.diagnostics.first?.severity == .error)
    }

    @Test("topics: presets, custom topics, and the limits that send the field to the next layer")
    func topics() {
        func resolve(_ topics: JSONValue) -> ResolvedLook {
            Resolver().resolve(LookLayers(dashboard: .object(["topics": topics]), code: .object(["topics": .array([.string("idea")])])))
        }
        let seven = JSONValue.array((1...7).map { .object(["id": .string("t\($0)"), "label": .string("Topic \($0)")]) })
        #expect(resolve(seven).topics.source == .code)
        #expect(resolve(seven).diagnostics.map(\.code.rawValue) == ["too_many_topics"])

        let duplicate = JSONValue.array([.string("bug"), .object(["id": .string("bug"), "label": .string("Bugs")])])
        #expect(resolve(duplicate).topics.source == .code)
        #expect(resolve(duplicate).diagnostics.map(\.code.rawValue) == ["duplicate_topic_id"])

        let badID = JSONValue.array([.object(["id": .string("-starts-with-dash"), "label": .string("X")])])
        #expect(resolve(badID).diagnostics.map(\.code.rawValue) == ["invalid_topic_id"])
        #expect(FieldReader.isTopicID(String(repeating: "a", count: 64)))
        #expect(!FieldReader.isTopicID(String(repeating: "a", count: 65)))

        // An unknown preset (from a newer dashboard) is dropped; the rest of the list stands.
        let future = resolve(.array([.string("refund"), .object(["id": .string("plans"), "label": .object(["en": .string("Plans"), "de": .string("Tarife")]), "symbol": .string("list.bullet")])]))
        #expect(future.topics.source == .dashboard)
        #expect(future.topics.value.map(\.id) == ["plans"])
        #expect(future.topics.value.first?.label.text(preferring: ["de-AT"]) == "Tarife")
        #expect(future.diagnostics.map(\.code.rawValue) == ["unknown_value"])
        #expect(future.diagnostics.first?.severity == .warning)

        // An explicit empty list is the team's choice: no topics.
        #expect(resolve(.array([])).topics == ResolvedField(value: [], source: .dashboard))
    }

    @Test("unknown fields, unknown enum values and fields from the wrong layer are ignored with warnings")
    func forwardCompatible() {
        let look = Resolver().resolve(LookLayers(
            dashboard: .object(["corners": .string("pill"), "bubbleShape": .string("blob"), "font": .null]),
            code: .object(["corners": .string("soft"), "branding": .bool(false), "appIconUrl": .string("https://x.example/i.png")]),
            inferred: .object(["font": .string("serif"), "hasBundleIcon": .bool(false)])
        ))
        #expect(look.corners == ResolvedField(value: .soft, source: .code))
        #expect(look.font == ResolvedField(value: .system, source: .default))
        #expect(look.branding == ResolvedField(value: true, source: .default))
        #expect(look.diagnostics.map { "\($0.layer.rawValue).\($0.field):\($0.code.rawValue)" } == [
            "dashboard.bubbleShape:unknown_field", "dashboard.corners:unknown_value",
            "code.appIconUrl:field_not_allowed", "code.branding:field_not_allowed",
            "inferred.font:field_not_allowed",
        ])
        #expect(look.diagnostics.allSatisfy { $0.severity == .warning })
    }

    @Test("a layer that is not an object is ignored whole; team text is trimmed and bounded")
    func badLayersAndText() {
        let look = Resolver().resolve(LookLayers(dashboard: .array([]), code: .object(["appName": .string("  Ledgerly \n"), "replyExpectation": .string("   ")])))
        #expect(look.appName.value == "Ledgerly")
        #expect(look.replyExpectation.source == .default)
        #expect(look.diagnostics.map(\.code.rawValue) == ["invalid_layer", "empty_value"])
        let long = Resolver().resolve(LookLayers(code: .object(["appName": .string(String(repeating: "x", count: 101))])))
        #expect(long.appName.source == .default && long.diagnostics.map(\.code.rawValue) == ["too_long"])
        let locale = Resolver().resolve(LookLayers(code: .object(["replyExpectation": .object(["en": .string("Soon"), "../x": .string("y")])])))
        #expect(locale.replyExpectation.source == .default && locale.diagnostics.map(\.code.rawValue) == ["invalid_locale"])
    }

    @Test("the input envelope: not JSON, not an object, or an unknown layer is an error")
    func envelope() throws {
        #expect(throws: LookInputError.self) { try LookLayers(json: Data("{".utf8)) }
        #expect(throws: LookInputError.self) { try LookLayers(json: Data("[]".utf8)) }
        #expect(throws: LookInputError.self) { try LookLayers(json: Data(#"{"dashbaord": {}}"#.utf8)) }
        let layers = try LookLayers(json: Data(#"{"dashboard": null, "code": {"font": "serif"}}"#.utf8))
        #expect(layers.dashboard == nil && layers.code == .object(["font": .string("serif")]))
    }

    @Test("validateLayer reports what a publish must refuse")
    func validation() {
        #expect(validateLayer(.object(["accent": .string("#3550E6"), "topics": .array([.string("bug")])]), as: .dashboard).isEmpty)
        let diagnostics = validateLayer(.object(["accent": .string("blue"), "later": .bool(true)]), as: .dashboard)
        #expect(diagnostics.map(\.severity) == [.error, .warning])
    }
}

@Test("every field name maps to its field, and nothing else does", .timeLimit(.minutes(10)))
func fieldNames() {
    for field in LookField.allCases {
        #expect(LookField(rawValue: field.rawValue) == field)
        #expect(LookField(rawValue: field.rawValue.uppercased()) == nil)
        #expect(LookField(rawValue: field.rawValue + "s") == nil)
    }
    for other in ["", "fonts", "accents", "corner", "appname", "topicz", "replyExpectations"] {
        #expect(LookField(rawValue: other) == nil)
    }
}
