import Testing
@testable import LookResolver
import StableJSON

@Suite("Names and labels must show something", .timeLimit(.minutes(10)))
struct InvisibleTextTests {
    func resolve(dashboard: [String: JSONValue] = [:], code: [String: JSONValue] = [:]) -> ResolvedLook {
        Resolver().resolve(LookLayers(dashboard: .object(dashboard), code: .object(code)))
    }

    @Test("a name of only invisible characters is invalid, falls through, and never becomes the monogram", arguments: [
        "\u{202E}", "\u{200B}", "\u{200C}", "\u{FEFF}", "\u{200F}", "\u{FFFF}", "\u{200B}\u{200D}\u{FEFF}", "\u{2066}\u{2069}",
        "\u{3164}", "\u{301}", "\u{E000}", "\u{061C}\u{200E}", "\u{FE0F}", "\u{2060}\u{00AD}",
    ])
    func invisibleName(name: String) {
        let look = resolve(dashboard: ["appName": .string(name)], code: ["appName": .string("Fox")])
        #expect(look.appName == ResolvedField(value: "Fox", source: .code))
        #expect(look.appIcon.value == .monogram("F"))
        #expect(look.diagnostics.map(\.code.rawValue) == ["invisible_text"], "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(look.diagnostics.first?.field == "appName")
        let alone = resolve(dashboard: ["appName": .string(name)])
        #expect(alone.appName.value == nil)
        #expect(alone.appIcon.value == .glyph)
    }

    @Test("white space and line separators alone are empty")
    func separators() {
        for name in ["\u{2028}", " \u{2029}\u{3000} "] {
            #expect(resolve(code: ["appName": .string(name)]).diagnostics.map(\.code.rawValue) == ["empty_value"])
        }
    }

    @Test("a topic label of only invisible characters is invalid; the topic is dropped with a diagnostic")
    func invisibleLabel() {
        let look = resolve(dashboard: ["topics": .array([.object(["id": .string("plans"), "label": .object(["en": .string("\u{200B}"), "de": .string("Tarife")])])])])
        #expect(look.topics.source == .default)
        #expect(look.diagnostics.map(\.code.rawValue) == ["invisible_text"])
        #expect(look.diagnostics.first?.field == "topics[0].label.en")
    }

    @Test("bidi controls inside a visible name or label are refused, not removed; sentences keep them")
    func bidiControls() {
        for name in ["Ledgerly\u{202E}", "\u{202E}ylregdeL", "Fox\u{200F}", "\u{2067}Fox\u{2069}"] {
            let look = resolve(dashboard: ["appName": .string(name)], code: ["appName": .string("Fox")])
            #expect(look.appName.value == "Fox")
            #expect(look.diagnostics.map(\.code.rawValue) == ["bidi_control"])
        }
        let label = resolve(code: ["topics": .array([.object(["id": .string("x"), "label": .string("Plans\u{202E}")])])])
        #expect(label.diagnostics.map(\.code.rawValue) == ["bidi_control"])
        // Prefill and reply expectation are sentences, where RLM/LRM fix mixed-direction punctuation: kept.
        let sentence = "שלום \u{200F}(Ledgerly)\u{200F}"
        let kept = resolve(code: ["replyExpectation": .string(sentence)])
        #expect(kept.replyExpectation.value == .text(sentence))
        #expect(kept.diagnostics.isEmpty)
    }

    @Test("visible names with zero-width characters inside still resolve; the monogram is the first visible grapheme")
    func monogram() {
        #expect(AppIcon.monogram(of: "\u{200B}fox") == "F")
        #expect(AppIcon.monogram(of: "\u{FEFF}\u{200C}élan") == "É")
        #expect(AppIcon.monogram(of: "\u{200B}") == nil)
        #expect(AppIcon.monogram(of: "👩‍👩‍👧 Family") == "👩‍👩‍👧")
        let look = resolve(code: ["appName": .string("\u{200B}kitchen\u{200D}table")])
        #expect(look.appName.value == "\u{200B}kitchen\u{200D}table")
        #expect(look.appIcon.value == .monogram("K"))
        // Every scalar in the first planes: a monogram, when there is one, starts with a visible scalar.
        for value in UInt32(0)...0x2FFF {
            guard let scalar = Unicode.Scalar(value), let letter = AppIcon.monogram(of: String(Character(scalar)) + "x") else { continue }
            let first = letter.unicodeScalars.first!
            #expect(VisibleText.isVisible(first) || letter == "X", "U+\(String(value, radix: 16))")
        }
    }
}
