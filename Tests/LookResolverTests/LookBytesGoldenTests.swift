import Testing
@testable import LookResolver

/// The exact bytes the encoder writes for a few rich looks. ETags and stored caches are derived from these bytes, so any
/// change to a single byte fails here (a real format change must replace the golden strings knowingly, and grow
/// ``ResolvedLook/schemaVersion`` if it breaks a reader).
///
/// These pin the encoder, not the colour science: each look's palette and adjustments are replaced by fixed values
/// (`fixedPalette`) before encoding, so the goldens hold only those fixed values, written out by hand. What the
/// palette itself must be is checked against an independent oracle in `PaletteOracleTests`.
@Suite("Encoded looks are byte-identical to the pinned goldens", .timeLimit(.minutes(10)))
struct LookBytesGoldenTests {
    struct Golden: CustomTestStringConvertible, Sendable {
        var name: String
        /// The resolver's input, `{"dashboard": …, "code": …, "inferred": …}`.
        var input: String
        /// The resolved look's stable JSON, byte for byte.
        var bytes: String
        var testDescription: String { name }
    }

    /// Hand-chosen colours, one distinct value per role, and two adjustments whose numbers exercise the encoder's
    /// rounding: a ratio is cut (4.4999 → 4.499, never rounded up), ΔE-OK rounded to 4 places (0.12345 → 0.1235), a hue
    /// shift to 2 (0.005 → 0.01, 359.996 → 360), whole numbers written without a fraction (7, 21, 1, 0).
    static let fixedPalette = Palette(
        light: AppearancePalette(background: hex("#FFFFFF"), bubbleFill: hex("#101112"), bubbleText: hex("#FFFFFE"), tint: hex("#606162"),
                                 text: hex("#505152"), secondaryText: hex("#202122"), teamBubbleFill: hex("#303132"), teamBubbleText: hex("#404142")),
        dark: AppearancePalette(background: hex("#000001"), bubbleFill: hex("#A1A2A3"), bubbleText: hex("#B1B2B3"), tint: hex("#0A0B0C"),
                                text: hex("#F1F2F3"), secondaryText: hex("#C1C2C3"), teamBubbleFill: hex("#D1D2D3"), teamBubbleText: hex("#E1E2E3")),
        increasedContrast: IncreasedContrastPalette(
            light: AppearancePalette(background: hex("#FFFFFD"), bubbleFill: hex("#1A1B1C"), bubbleText: hex("#2A2B2C"), tint: hex("#7A7B7C"),
                                     text: hex("#6A6B6C"), secondaryText: hex("#3A3B3C"), teamBubbleFill: hex("#4A4B4C"), teamBubbleText: hex("#5A5B5C")),
            dark: AppearancePalette(background: hex("#000002"), bubbleFill: hex("#8A8B8C"), bubbleText: hex("#9A9B9C"), tint: hex("#EAEBEC"),
                                    text: hex("#DADBDC"), secondaryText: hex("#AAABAC"), teamBubbleFill: hex("#BABBBC"), teamBubbleText: hex("#CACBCC"))),
        adjustments: [
            ColorAdjustment(role: .tint, appearance: .light, contrast: .standard, direction: .darker, original: hex("#123456"),
                            adjusted: hex("#0F2A40"), against: .white, minimumRatio: 4.5, ratioBefore: 4.4999, ratioAfter: 7,
                            deltaEOK: 0.12345, hueShift: 0.005),
            ColorAdjustment(role: .bubbleFill, appearance: .dark, contrast: .increased, direction: .darker, original: hex("#ABCDEF"),
                            adjusted: .black, against: .white, minimumRatio: 7, ratioBefore: 1, ratioAfter: 21, deltaEOK: 0, hueShift: 359.996),
        ])

    /// `fixedPalette` as the wire format writes it (keys sorted), by hand.
    static let fixedPaletteJSON = ##"{"dark":{"background":"#000001","bubbleFill":"#A1A2A3","bubbleText":"#B1B2B3","secondaryText":"#C1C2C3","teamBubbleFill":"#D1D2D3","teamBubbleText":"#E1E2E3","text":"#F1F2F3","tint":"#0A0B0C"},"increasedContrast":{"dark":{"background":"#000002","bubbleFill":"#8A8B8C","bubbleText":"#9A9B9C","secondaryText":"#AAABAC","teamBubbleFill":"#BABBBC","teamBubbleText":"#CACBCC","text":"#DADBDC","tint":"#EAEBEC"},"light":{"background":"#FFFFFD","bubbleFill":"#1A1B1C","bubbleText":"#2A2B2C","secondaryText":"#3A3B3C","teamBubbleFill":"#4A4B4C","teamBubbleText":"#5A5B5C","text":"#6A6B6C","tint":"#7A7B7C"}},"light":{"background":"#FFFFFF","bubbleFill":"#101112","bubbleText":"#FFFFFE","secondaryText":"#202122","teamBubbleFill":"#303132","teamBubbleText":"#404142","text":"#505152","tint":"#606162"}}"##
    static let fixedAdjustmentsJSON = ##"[{"adjusted":"#0F2A40","against":"#FFFFFF","appearance":"light","deltaEOK":0.1235,"direction":"darker","hueShift":0.01,"minimumRatio":4.5,"original":"#123456","ratioAfter":7,"ratioBefore":4.499,"role":"tint"},{"adjusted":"#000000","against":"#FFFFFF","appearance":"increasedContrast.dark","deltaEOK":0,"direction":"darker","hueShift":360,"minimumRatio":7,"original":"#ABCDEF","ratioAfter":21,"ratioBefore":1,"role":"bubbleFill"}]"##

    private static func hex(_ text: String) -> RGBColor { RGBColor(hex: text)! }

    /// The resolved look of `golden`'s input with the fixed palette in place of the derived one.
    static func encoded(_ golden: Golden, resolver: Resolver = Resolver()) throws -> [UInt8] {
        var look = resolver.resolve(try LookLayers(json: Array(golden.input.utf8)))
        look.palette = fixedPalette
        return look.jsonBytes()
    }

    static let goldens: [Golden] = [
        Golden(
            name: "the bench's input: three layers, a split accent, preset and custom topics",
            input: ##"{"code":{"accent":"#34C759","corners":"soft","font":"rounded","headerStyle":"app"},"dashboard":{"accent":{"dark":"#5E5CE6","light":"#FFD60A"},"replyExpectation":"Usually replies within a few hours","topics":["billing","bug",{"id":"plans","label":{"de":"Tarife","en":"Plans"}}]},"inferred":{"accent":"#007AFF","appName":"Ledgerly","hasBundleIcon":false}}"##,
            bytes: ##"{"accent":{"source":"dashboard","value":{"dark":"#5E5CE6","light":"#FFD60A"}},"adjustments":\##(LookBytesGoldenTests.fixedAdjustmentsJSON),"appIcon":{"source":"inferred","value":{"kind":"monogram","letter":"L"}},"appName":{"source":"inferred","value":"Ledgerly"},"branding":{"source":"default","value":true},"corners":{"radius":12,"source":"code","value":"soft"},"diagnostics":[],"font":{"source":"code","value":"rounded"},"headerStyle":{"source":"code","value":"app"},"palette":\##(LookBytesGoldenTests.fixedPaletteJSON),"replyExpectation":{"source":"dashboard","value":{"text":"Usually replies within a few hours"}},"schema":1,"topics":{"source":"dashboard","value":[{"id":"billing","label":{"catalogKey":"topic.billing","text":"Billing"},"prefill":{"catalogKey":"topic.billing.prefill","text":"I have a question about a payment or my subscription."},"preset":"billing","symbol":"creditcard"},{"id":"bug","label":{"catalogKey":"topic.bug","text":"Report a bug"},"prefill":{"catalogKey":"topic.bug.prefill","text":"Something isn't working: "},"preset":"bug","symbol":"ladybug"},{"id":"plans","label":{"localized":{"de":"Tarife","en":"Plans"}},"symbol":"bubble.left"}]}}"##
        ),
        Golden(
            name: "defaults only",
            input: ##"{}"##,
            bytes: ##"{"accent":{"source":"default","value":{"dark":"#0A84FF","light":"#007AFF"}},"adjustments":\##(LookBytesGoldenTests.fixedAdjustmentsJSON),"appIcon":{"source":"default","value":{"kind":"glyph"}},"appName":{"source":"default","value":null},"branding":{"source":"default","value":true},"corners":{"radius":18,"source":"default","value":"round"},"diagnostics":[],"font":{"source":"default","value":"system"},"headerStyle":{"source":"default","value":"team"},"palette":\##(LookBytesGoldenTests.fixedPaletteJSON),"replyExpectation":{"source":"default","value":{"catalogKey":"header.replyExpectation.day","text":"Usually replies within a day"}},"schema":1,"topics":{"source":"default","value":[]}}"##
        ),
        Golden(
            name: "a diagnostic of every kind, including a field name that needs escaping",
            input: ##"{"dashboard":{"accent":{"light":"#12","dark":7,"mid":"#000"},"corners":"pill","font":3,"hasBundleIcon":true,"appName":"\u202eFox","topics":["billing","nope",{"id":"bad id","label":"x"},{"id":"ok","label":{"en":"Ok","english":"x","de":5},"colour":"red"},{"id":"ok","label":"dupe","symbol":"Not A Symbol"}],"we\"ird\\\u0001\nkey\u007f":1,"replyExpectation":{}},"code":{"appIconUrl":"https://x.example/i.png","branding":false,"accent":"red","headerStyle":"app","replyExpectation":"   ","appName":"\t\t"},"inferred":{"appName":"\u200b\u200b","accent":"#abc","corners":"soft","hasBundleIcon":"yes","topics":[]}}"##,
            bytes: ##"{"accent":{"source":"inferred","value":{"dark":"#AABBCC","light":"#AABBCC"}},"adjustments":\##(LookBytesGoldenTests.fixedAdjustmentsJSON),"appIcon":{"source":"default","value":{"kind":"glyph"}},"appName":{"source":"default","value":null},"branding":{"source":"default","value":true},"corners":{"radius":18,"source":"default","value":"round"},"diagnostics":[{"code":"invalid_type","field":"accent.dark","layer":"dashboard","message":"expected a colour string like \"#3550E6\", got a number","severity":"error"},{"code":"invalid_color","field":"accent.light","layer":"dashboard","message":"'#12' is not a colour: use #RRGGBB, #RGB or #RRGGBBFF (opaque)","severity":"error"},{"code":"unknown_field","field":"accent.mid","layer":"dashboard","message":"accent takes 'light' and 'dark'; 'mid' is ignored","severity":"warning"},{"code":"bidi_control","field":"appName","layer":"dashboard","message":"contains the bidi control U+202E; names and labels may not reorder text (the chat isolates them itself)","severity":"error"},{"code":"unknown_value","field":"corners","layer":"dashboard","message":"unknown value 'pill' (this version knows 'round', 'soft', 'square'); ignored","severity":"warning"},{"code":"invalid_type","field":"font","layer":"dashboard","message":"expected a string, got a number","severity":"error"},{"code":"field_not_allowed","field":"hasBundleIcon","layer":"dashboard","message":"hasBundleIcon can only come from the inferred layer; ignored","severity":"warning"},{"code":"empty_value","field":"replyExpectation","layer":"dashboard","message":"expected at least one language, e.g. {\"en\": \"…\"}","severity":"error"},{"code":"unknown_value","field":"topics[1]","layer":"dashboard","message":"unknown preset 'nope' (this version knows 'billing', 'bug', 'idea'); ignored","severity":"warning"},{"code":"invalid_topic_id","field":"topics[2].id","layer":"dashboard","message":"'bad id' must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$","severity":"error"},{"code":"unknown_field","field":"topics[3].colour","layer":"dashboard","message":"a topic has id, label, symbol and prefill; 'colour' is ignored","severity":"warning"},{"code":"invalid_type","field":"topics[3].label.de","layer":"dashboard","message":"expected a string, got a number","severity":"error"},{"code":"invalid_locale","field":"topics[3].label.english","layer":"dashboard","message":"'english' is not a language tag like en, pt-BR or zh-Hant","severity":"error"},{"code":"invalid_value","field":"topics[4].symbol","layer":"dashboard","message":"'Not A Symbol' is not an SF Symbol name like 'creditcard' or 'bubble.left'","severity":"error"},{"code":"unknown_field","field":"we\"ird\\\u0001\nkey\##u{7F}","layer":"dashboard","message":"'we\"ird\\\u0001\nkey\##u{7F}' is not a look field this version knows; ignored","severity":"warning"},{"code":"invalid_color","field":"accent","layer":"code","message":"'red' is not a colour: use #RRGGBB, #RGB or #RRGGBBFF (opaque)","severity":"error"},{"code":"field_not_allowed","field":"appIconUrl","layer":"code","message":"appIconUrl can only come from the dashboard layer; ignored","severity":"warning"},{"code":"empty_value","field":"appName","layer":"code","message":"must not be empty","severity":"error"},{"code":"field_not_allowed","field":"branding","layer":"code","message":"branding can only come from the dashboard layer; ignored","severity":"warning"},{"code":"empty_value","field":"replyExpectation","layer":"code","message":"must not be empty","severity":"error"},{"code":"invisible_text","field":"appName","layer":"inferred","message":"has no visible character (U+200B U+200B)","severity":"error"},{"code":"field_not_allowed","field":"corners","layer":"inferred","message":"corners can only come from the dashboard or code layer; ignored","severity":"warning"},{"code":"invalid_type","field":"hasBundleIcon","layer":"inferred","message":"expected true or false, got a string","severity":"error"},{"code":"field_not_allowed","field":"topics","layer":"inferred","message":"topics can only come from the dashboard or code layer; ignored","severity":"warning"}],"font":{"source":"default","value":"system"},"headerStyle":{"source":"code","value":"app"},"palette":\##(LookBytesGoldenTests.fixedPaletteJSON),"replyExpectation":{"source":"default","value":{"catalogKey":"header.replyExpectation.day","text":"Usually replies within a day"}},"schema":1,"topics":{"source":"default","value":[]}}"##
        ),
        Golden(
            name: "unicode and characters that need escaping in texts, a URL icon, localized texts in many scripts",
            input: ##"{"dashboard":{"appName":"élan \"Ledgerly\" \\ co","appIconUrl":"https://cdn.example.com/i/icon%20x.png?v=2&size=large","replyExpectation":{"en":"Replies in ~1h / \"fast\" \\o/","de":"Antwortet in ~1 Std.","ja":"通常1時間以内に返信します","he":"שלום \u200f(Ledgerly)\u200f","ar-EG":"🙂 عادة","pt-BR":"Responde em até 1 hora"},"topics":[{"id":"plans","label":{"en":"Plans ✨","zh-Hant":"方案"},"prefill":"A \"quote\", a \\ and a / slash","symbol":"creditcard.fill"},"idea",{"id":"x.y-z_1","label":"👩\u200d💻 Dev","prefill":{"en":"Hi","fr":"Salut\u2028ça va"}}]},"code":{"accent":"#fff","appName":"Ledgerly"},"inferred":{"appName":"👩\u200d💻 Dev","hasBundleIcon":false}}"##,
            bytes: ##"{"accent":{"source":"code","value":{"dark":"#FFFFFF","light":"#FFFFFF"}},"adjustments":\##(LookBytesGoldenTests.fixedAdjustmentsJSON),"appIcon":{"source":"dashboard","value":{"kind":"url","url":"https://cdn.example.com/i/icon%20x.png?v=2&size=large"}},"appName":{"source":"dashboard","value":"élan \"Ledgerly\" \\ co"},"branding":{"source":"default","value":true},"corners":{"radius":18,"source":"default","value":"round"},"diagnostics":[],"font":{"source":"default","value":"system"},"headerStyle":{"source":"default","value":"team"},"palette":\##(LookBytesGoldenTests.fixedPaletteJSON),"replyExpectation":{"source":"dashboard","value":{"localized":{"ar-EG":"🙂 عادة","de":"Antwortet in ~1 Std.","en":"Replies in ~1h / \"fast\" \\o/","he":"שלום \##u{200F}(Ledgerly)\##u{200F}","ja":"通常1時間以内に返信します","pt-BR":"Responde em até 1 hora"}}},"schema":1,"topics":{"source":"dashboard","value":[{"id":"plans","label":{"localized":{"en":"Plans ✨","zh-Hant":"方案"}},"prefill":{"text":"A \"quote\", a \\ and a / slash"},"symbol":"creditcard.fill"},{"id":"idea","label":{"catalogKey":"topic.idea","text":"Share an idea"},"prefill":{"catalogKey":"topic.idea.prefill","text":"I have an idea: "},"preset":"idea","symbol":"lightbulb"},{"id":"x.y-z_1","label":{"text":"👩\##u{200D}💻 Dev"},"prefill":{"localized":{"en":"Hi","fr":"Salut\##u{2028}ça va"}},"symbol":"bubble.left"}]}}"##
        ),
        Golden(
            name: "a mid grey: every palette adjusted, both contrast levels",
            input: ##"{"code":{"accent":"#777777"},"inferred":{"appName":"élan"}}"##,
            bytes: ##"{"accent":{"source":"code","value":{"dark":"#777777","light":"#777777"}},"adjustments":\##(LookBytesGoldenTests.fixedAdjustmentsJSON),"appIcon":{"source":"inferred","value":{"kind":"monogram","letter":"É"}},"appName":{"source":"inferred","value":"élan"},"branding":{"source":"default","value":true},"corners":{"radius":18,"source":"default","value":"round"},"diagnostics":[],"font":{"source":"default","value":"system"},"headerStyle":{"source":"default","value":"team"},"palette":\##(LookBytesGoldenTests.fixedPaletteJSON),"replyExpectation":{"source":"default","value":{"catalogKey":"header.replyExpectation.day","text":"Usually replies within a day"}},"schema":1,"topics":{"source":"default","value":[]}}"##
        ),
        Golden(
            name: "white and black accents, the bundle icon",
            input: ##"{"dashboard":{"accent":{"light":"#FFFFFF","dark":"#000000"},"branding":false},"inferred":{"hasBundleIcon":true,"appName":"Zed"}}"##,
            bytes: ##"{"accent":{"source":"dashboard","value":{"dark":"#000000","light":"#FFFFFF"}},"adjustments":\##(LookBytesGoldenTests.fixedAdjustmentsJSON),"appIcon":{"source":"inferred","value":{"kind":"bundle"}},"appName":{"source":"inferred","value":"Zed"},"branding":{"source":"dashboard","value":false},"corners":{"radius":18,"source":"default","value":"round"},"diagnostics":[],"font":{"source":"default","value":"system"},"headerStyle":{"source":"default","value":"team"},"palette":\##(LookBytesGoldenTests.fixedPaletteJSON),"replyExpectation":{"source":"default","value":{"catalogKey":"header.replyExpectation.day","text":"Usually replies within a day"}},"schema":1,"topics":{"source":"default","value":[]}}"##
        ),
        Golden(
            name: "a saturated blue that passes some levels and not others",
            input: ##"{"dashboard":{"accent":"#3550E6","corners":"square","font":"serif","headerStyle":"person","replyExpectation":"Within minutes","topics":["idea","bug","billing"]}}"##,
            bytes: ##"{"accent":{"source":"dashboard","value":{"dark":"#3550E6","light":"#3550E6"}},"adjustments":\##(LookBytesGoldenTests.fixedAdjustmentsJSON),"appIcon":{"source":"default","value":{"kind":"glyph"}},"appName":{"source":"default","value":null},"branding":{"source":"default","value":true},"corners":{"radius":6,"source":"dashboard","value":"square"},"diagnostics":[],"font":{"source":"dashboard","value":"serif"},"headerStyle":{"source":"dashboard","value":"person"},"palette":\##(LookBytesGoldenTests.fixedPaletteJSON),"replyExpectation":{"source":"dashboard","value":{"text":"Within minutes"}},"schema":1,"topics":{"source":"dashboard","value":[{"id":"idea","label":{"catalogKey":"topic.idea","text":"Share an idea"},"prefill":{"catalogKey":"topic.idea.prefill","text":"I have an idea: "},"preset":"idea","symbol":"lightbulb"},{"id":"bug","label":{"catalogKey":"topic.bug","text":"Report a bug"},"prefill":{"catalogKey":"topic.bug.prefill","text":"Something isn't working: "},"preset":"bug","symbol":"ladybug"},{"id":"billing","label":{"catalogKey":"topic.billing","text":"Billing"},"prefill":{"catalogKey":"topic.billing.prefill","text":"I have a question about a payment or my subscription."},"preset":"billing","symbol":"creditcard"}]}}"##
        ),
    ]

    @Test("the encoded look is the pinned golden, byte for byte", arguments: goldens)
    func pinned(_ golden: Golden) throws {
        let bytes = try Self.encoded(golden)
        #expect(String(decoding: bytes, as: UTF8.self) == golden.bytes)
        #expect(bytes == Array(golden.bytes.utf8))
    }

    @Test("a warm palette memo gives the same look and the same bytes", arguments: goldens)
    func memoized(_ golden: Golden) throws {
        let layers = try LookLayers(json: Array(golden.input.utf8))
        let memo = Resolver(paletteCache: PaletteCache())
        let cold = memo.resolve(layers), warm = memo.resolve(layers)
        #expect(warm == cold)
        #expect(warm == Resolver().resolve(layers))
        #expect(try Self.encoded(golden, resolver: memo) == Array(golden.bytes.utf8))
    }
}
