import LookClient
import LookResolver
import StableJSON

/// xorshift64*: a seeded generator, so a failing case is reproducible from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x2545_F491_4F6C_DD1D : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}

/// Random look layers for the merge property test: valid values across the colour gamut, invalid ones of every
/// kind the resolver reports (bad colours and types, unknown values and fields, fields not allowed in the layer,
/// empty, invisible, bidi and over-long texts, bad language tags, topic ids and symbols, too many topics), localized
/// texts, whole layers that are not objects, and floods of unknown fields and refused topics (up to the daemon's
/// input bounds: 64 keys and 32 topics a layer) that take a look over `Diagnostic.answerLimit` diagnostics.
struct LayerGenerator {
    var random: SeededGenerator
    /// Only values the resolver accepts (for looks with no diagnostic).
    var validOnly = false
    /// The percentage of layers flooded with unknown fields and refused topics (never with `validOnly`).
    var floodPercent = 10

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    /// `chance(percent)`, always true when only valid values are wanted: the branch that gives a valid value.
    mutating func valid(_ percent: Int) -> Bool { validOnly || chance(percent) }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }

    mutating func color() -> String {
        let value = Int.random(in: 0...0xFFFFFF, using: &random)
        let hex = String(value, radix: 16, uppercase: chance(50))
        return "#" + String(repeating: "0", count: 6 - hex.count) + hex
    }

    mutating func accent() -> JSONValue {
        if validOnly { return chance(50) ? .string(color()) : .object(["light": .string(color()), "dark": .string(color())]) }
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: return .string(color())
        case 4: return .string(pick(["red", "#12345", "", "#GGGGGG", "007AFF", "#FFF", "#ffd60a"]))
        case 5..<8:
            var members: [String: JSONValue] = [:]
            if chance(80) { members["light"] = .string(color()) }
            if chance(80) { members["dark"] = chance(90) ? .string(color()) : .number(7) }
            if chance(10) { members["tint"] = .string(color()) }
            return .object(members)
        default: return pick([.number(12), .bool(true), .array([]), .null])
        }
    }

    mutating func text(limit: Int) -> String {
        if validOnly { return pick(["Ledgerly", "Ask us", "مرحبا بكم", "Élan 🚀", "שלום"]) }
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return ""
        case 1: return "   "
        case 2: return "\u{200B}\u{200E}"
        case 3: return "Ledgerly\u{202E}"
        case 4: return String(repeating: "x", count: limit + 1)
        case 5: return "  Trimmed text  "
        case 6: return "مرحبا بكم"
        case 7: return "Élan 🚀"
        case 8: return "שלום"
        case 9: return "A\u{0007}B"
        default: return pick(["Ledgerly", "Usually replies within a few hours", "Billing & plans", "Ask us", "Report a problem"])
        }
    }

    mutating func localized(limit: Int) -> JSONValue {
        if chance(50) { return .string(text(limit: limit)) }
        if !validOnly && chance(10) { return chance(50) ? .object([:]) : .number(3) }
        var members: [String: JSONValue] = [:]
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let tag = validOnly ? pick(["en", "de", "pt-BR", "ar"]) : pick(["en", "de", "pt-BR", "zh-Hant", "ar", "es-419", "fr-CA", "xx_YY", "EN", "toolonglanguage", "ja"])
            members[tag] = valid(90) ? .string(text(limit: limit)) : .bool(false)
        }
        return .object(members)
    }

    mutating func topic() -> JSONValue {
        if chance(35) { return .string(validOnly ? pick(["billing", "bug", "idea"]) : pick(["billing", "bug", "idea", "refunds", "BUG"])) }
        var members: [String: JSONValue] = [:]
        if valid(90) { members["id"] = valid(80) ? .string(pick(["orders", "t\(Int.random(in: 0..<5, using: &random))", "faq.v2", "a-b_c"])) : .string(pick(["", "-x", "has space", "ü"])) }
        if valid(90) { members["label"] = localized(limit: LookLimits.topicLabel) }
        if chance(50) { members["symbol"] = .string(validOnly ? "cart.fill" : pick(["creditcard", "bubble.left", "Not A Symbol", "cart.fill"])) }
        if chance(40) { members["prefill"] = localized(limit: LookLimits.topicPrefill) }
        if !validOnly && chance(5) { members["emoji"] = .string("x") }
        return .object(members)
    }

    /// A layer: mostly an object with some of the look fields, sometimes another JSON value, sometimes absent.
    /// `as layer`: with `validOnly`, only the fields that layer may set.
    mutating func layer(as layer: LookLayer = .dashboard) -> JSONValue? {
        if chance(10) { return nil }
        if !validOnly && chance(3) { return pick([.array([]), .string("accent"), .number(1), .bool(false)]) }
        var members: [String: JSONValue] = [:]
        if chance(60) { members["accent"] = accent() }
        if chance(30) { members["corners"] = valid(85) ? .string(pick(["round", "soft", "square"])) : pick([.string("pill"), .number(4)]) }
        if chance(30) { members["font"] = valid(85) ? .string(pick(["system", "rounded", "serif"])) : .string("mono") }
        if chance(30) { members["headerStyle"] = valid(85) ? .string(pick(["person", "team", "app"])) : .null }
        if chance(30) { members["replyExpectation"] = localized(limit: LookLimits.replyExpectation) }
        if chance(35) {
            // Valid topics: distinct ids, at most six.
            let topics = (0..<Int.random(in: 0...(validOnly ? 3 : 7), using: &random)).map { _ in topic() }
            var ids: Set<String> = []
            let distinct = topics.filter { ids.insert($0.stringValue ?? $0["id"]?.stringValue ?? "").inserted }
            members["topics"] = valid(95) ? .array(validOnly ? distinct : topics) : .string("billing")
        }
        if chance(40) { members["appName"] = valid(90) ? .string(text(limit: LookLimits.appName)) : .number(1) }
        if chance(15) { members["appIconUrl"] = .string(validOnly ? "https://example.com/icon.png" : pick(["https://example.com/icon.png", "http://x", "https://", "javascript:alert(1)"])) }
        if chance(15) { members["hasBundleIcon"] = valid(90) ? .bool(chance(50)) : .string("yes") }
        if chance(15) { members["branding"] = valid(90) ? .bool(chance(50)) : .null }
        if !validOnly && chance(8) { members["newerField"] = .string("from a newer dashboard") }
        if !validOnly && chance(floodPercent) {
            // At most 13 fields above plus 50 unknown ones: under the daemon's 64 keys a layer.
            for index in 0..<Int.random(in: 20...50, using: &random) { members["unknown\(index)"] = .number(JSONNumber(index)) }
            if chance(70) {
                members["topics"] = .array((0..<Int.random(in: 7...32, using: &random)).map { _ in
                    .object(["id": .string(pick(["has space", "", "ü"])), "label": .string(""), "emoji": .string("x")])
                })
            }
        }
        if validOnly { members = members.filter { LookField(rawValue: $0.key)?.isAllowed(in: layer) ?? false } }
        return .object(members)
    }

    /// Typed app layers (what an SDK builds), with texts that may be refused.
    mutating func typedLayers() -> AppLayers {
        func rgb(_ text: String) -> RGBColor { RGBColor(hex: text) ?? .black }
        var code = CodeLayer()
        if chance(50) { code.accent = chance(50) ? AccentColor(rgb(color())) : AccentColor(light: rgb(color()), dark: rgb(color())) }
        if chance(40) { code.corners = pick(Corners.allCases) }
        if chance(40) { code.font = pick(FontStyle.allCases) }
        if chance(40) { code.headerStyle = pick(HeaderStyle.allCases) }
        if chance(40) { code.replyExpectation = chance(50) ? .text(text(limit: 200)) : .localized(["en": text(limit: 200), "de": "Antwortet bald"]) }
        if chance(40) {
            code.topics = (0..<Int.random(in: 0...4, using: &random)).map { index in
                chance(50) ? pick([.billing, .bug, .idea, .preset("nope")])
                    : .custom(id: "own\(index)", label: .text(text(limit: 60)), symbol: chance(50) ? "cart" : nil,
                              prefill: chance(50) ? .localized(["en": "Hi", "fr": "Salut"]) : nil)
            }
        }
        if chance(50) { code.appName = text(limit: 100) }
        var inferred = InferredLayer()
        if chance(60) { inferred.accent = AccentColor(rgb(color())) }
        if chance(60) { inferred.appName = text(limit: 100) }
        if chance(50) { inferred.hasBundleIcon = chance(50) }
        return AppLayers(code: chance(85) ? code : nil, inferred: chance(85) ? inferred : nil)
    }
}
