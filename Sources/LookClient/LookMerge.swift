import LookResolver
import StableJSON

/// The device's merge: the published dashboard layer over the app's code and inferred layers, field by field, with
/// the same ``Resolver`` the server uses and the same bound on the diagnostics (``Diagnostic/bounded(_:)``) — so the
/// result is byte for byte what `POST /v1/looks/resolve` answers for the same three layers. Pure; thread-safe.
public enum LookMerge {
    /// The look of `dashboard` (nil: none published) over `layers` and the defaults, its diagnostics bounded as the
    /// server bounds an answer's: at most ``Diagnostic/answerLimit``, the last one then a `diagnostics_truncated`
    /// notice.
    public static func resolve(dashboard: JSONValue?, layers: AppLayers, resolver: Resolver = Resolver()) -> ResolvedLook {
        resolver.resolve(LookLayers(dashboard: dashboard, code: layers.code, inferred: layers.inferred)).bounded
    }

    /// The words of `look` (the merged look) in the fetch answer's locale: the server's texts for what the dashboard
    /// set; for what the app's layers set, the team text in the best language of the locale (``LocalizedText/text(preferring:)``);
    /// for a built-in text (a preset, the default reply expectation), the server's translation when the answer
    /// carries it, else the English source, its catalog key listed in ``LookTexts/untranslatedKeys``.
    public static func texts(of look: ResolvedLook, answer: FetchedLook) -> LookTexts {
        let catalog = catalogTexts(answer)
        var untranslated: [String] = []
        func localized(_ text: LocalizedText) -> String {
            if case .catalog(let key, let english) = text {
                if let known = catalog[key] { return known }
                if !untranslated.contains(key) { untranslated.append(key) }
                return english
            }
            return text.text(preferring: [answer.locale])
        }
        let replyExpectation = look.replyExpectation.source == .dashboard
            ? answer.texts.replyExpectation : localized(look.replyExpectation.value)
        let topics = look.topics.source == .dashboard
            ? answer.texts.topics.map { LookTexts.Topic(id: $0.id, label: $0.label, prefill: $0.prefill) }
            : look.topics.value.map { LookTexts.Topic(id: $0.id, label: localized($0.label), prefill: $0.prefill.map(localized)) }
        return LookTexts(locale: answer.locale, direction: answer.direction, replyExpectation: replyExpectation, topics: topics,
                         untranslatedKeys: untranslated)
    }

    /// Catalog key → the server's text in the answer's locale, for every built-in text of the server's look.
    static func catalogTexts(_ answer: FetchedLook) -> [String: String] {
        var texts: [String: String] = [:]
        if let key = answer.look["replyExpectation"]?["value"]?["catalogKey"]?.stringValue {
            texts[key] = answer.texts.replyExpectation
        }
        guard case .array(let topics)? = answer.look["topics"]?["value"] else { return texts }
        for topic in topics {
            guard let id = topic["id"]?.stringValue, let words = answer.texts.topics.first(where: { $0.id == id }) else { continue }
            if let key = topic["label"]?["catalogKey"]?.stringValue { texts[key] = words.label }
            if let key = topic["prefill"]?["catalogKey"]?.stringValue, let prefill = words.prefill { texts[key] = prefill }
        }
        return texts
    }
}

/// A look's words in one locale: what the chat shows for the reply expectation and the topics.
public struct LookTexts: Sendable, Hashable {
    public struct Topic: Sendable, Hashable {
        public var id: String
        public var label: String
        public var prefill: String?

        public init(id: String, label: String, prefill: String?) {
            self.id = id
            self.label = label
            self.prefill = prefill
        }
    }

    /// The negotiated locale (`de`, `pt-BR`, …) and its direction (`ltr`, `rtl`).
    public var locale: String
    public var direction: String
    public var replyExpectation: String
    public var topics: [Topic]
    /// Catalog keys of built-in texts the server's answer did not translate (a preset only the app's code set); their
    /// English source is used above, and the SDK may take them from the strings it bundles.
    public var untranslatedKeys: [String]

    public init(locale: String, direction: String, replyExpectation: String, topics: [Topic], untranslatedKeys: [String] = []) {
        self.locale = locale
        self.direction = direction
        self.replyExpectation = replyExpectation
        self.topics = topics
        self.untranslatedKeys = untranslatedKeys
    }

    /// `{"replyExpectation": …, "topics": [{"id", "label", "prefill"}], "untranslatedKeys": […]}`: the fetch answer's
    /// `texts` shape, plus the untranslated keys.
    public var jsonValue: JSONValue {
        .object([
            "replyExpectation": .string(replyExpectation),
            "topics": .array(topics.map { .object(["id": .string($0.id), "label": .string($0.label), "prefill": $0.prefill.map(JSONValue.string) ?? .null]) }),
            "untranslatedKeys": .array(untranslatedKeys.map(JSONValue.string)),
        ])
    }
}

/// What ``LookClient/look(language:)`` returns: always a look, and where it came from.
public struct ClientLook: Sendable {
    /// The merged look: dashboard > code > inferred > default, contrast enforced.
    public var look: ResolvedLook
    /// Its words in ``locale``; nil for a built-in look (the SDK uses the strings it bundles).
    public var texts: LookTexts?
    /// The published version; the draft's version for a draft (``isDraft``); nil for a built-in look.
    public var version: Int?
    /// The negotiated locale of the answer; nil for a built-in look.
    public var locale: String?
    public var source: LookSource
    /// Seconds since the server last confirmed the published layer (a 200 or 304); nil for a built-in look.
    public var age: Double?
    /// Why this is not a fresh answer from the server, when the last attempt failed (nil: nothing went wrong).
    public var error: LookClientError?
    /// A cache file that could not be used and was deleted, with the reason (nil: none).
    public var discardedCache: String?
    /// `true` when this is the app's draft, fetched with a preview token (``LookClient/setPreviewToken(_:)``):
    /// `source` is then `network`, `version` the draft's own version and `age` 0. Never cached.
    public var isDraft: Bool

    public init(look: ResolvedLook, texts: LookTexts?, version: Int?, locale: String?, source: LookSource, age: Double?,
                error: LookClientError? = nil, discardedCache: String? = nil, isDraft: Bool = false) {
        self.look = look
        self.texts = texts
        self.version = version
        self.locale = locale
        self.source = source
        self.age = age
        self.error = error
        self.discardedCache = discardedCache
        self.isDraft = isDraft
    }
}
