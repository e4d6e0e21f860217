import LookResolver
import StableJSON

/// The answer of the SDK's fetch, `GET /v1/apps/{appKey}/look` (docs/http-api.md), as a typed value.
///
/// Decoded with StableJSON's strict reader (no `JSONSerialization`, no `Codable`). Members a newer server adds are
/// kept in ``additionalMembers`` and written back by ``jsonBytes()``, so a body decoded and encoded again is the
/// daemon's bytes exactly. Thread-safe: a value type.
public struct FetchedLook: Sendable, Hashable {
    /// The app key the answer is for.
    public var appKey: String
    /// The published dashboard layer, as stored: the layer the client merges its code and inferred layers under.
    public var dashboard: JSONValue
    /// The negotiated locale's writing direction: `ltr` or `rtl`.
    public var direction: String
    /// The locale the server negotiated from `?lang=` (one of the 50, or a pseudo-locale): `de`, `pt-BR`, `es-419`.
    public var locale: String
    /// The dashboard layer resolved over the defaults, as the server wrote it (docs/look.md, the wire format). The
    /// client does not use it for the merge (it resolves the three layers itself); it is kept for diagnostics and the
    /// round trip.
    public var look: JSONValue
    /// When the version was published, RFC 3339 (`2026-11-30T10:46:53.017Z`); nil (`null` on the wire) for a draft.
    public var publishedAt: String?
    /// The look's words in ``locale``, for the dashboard-only look.
    public var texts: FetchTexts
    /// The published version, 1 and up (versions only grow); for a draft, the draft's own version (`d<N>`'s N),
    /// which is not comparable with the published ones.
    public var version: Int
    /// `true` for the app's draft, answered to a preview token (`Lookd-Preview`, docs/preview.md); nil when the answer
    /// does not say (a published look: the daemon writes the member only for a draft).
    public var draft: Bool?
    /// Members this version of the client does not know, kept as they came.
    public var additionalMembers: JSONObject

    public init(appKey: String, dashboard: JSONValue, direction: String, locale: String, look: JSONValue, publishedAt: String?,
                texts: FetchTexts, version: Int, draft: Bool? = nil, additionalMembers: JSONObject = [:]) {
        self.appKey = appKey
        self.dashboard = dashboard
        self.direction = direction
        self.locale = locale
        self.look = look
        self.publishedAt = publishedAt
        self.texts = texts
        self.version = version
        self.draft = draft
        self.additionalMembers = additionalMembers
    }

    /// Whether this is the app's draft (``draft`` is `true`), never the published look.
    public var isDraft: Bool { draft == true }

    static let knownKeys: Set<String> = ["appKey", "dashboard", "direction", "draft", "locale", "look", "publishedAt", "texts", "version"]

    /// Decodes a fetch answer's body (the published look, or a draft answered to a preview token). Throws
    /// ``WireFormatError`` naming the problem: not JSON (with the reader's line and column), not an object, a member
    /// missing or of the wrong type, a version below 1.
    public init(json bytes: some Collection<UInt8>) throws(WireFormatError) {
        let value: JSONValue
        do {
            value = try JSONReader.read(bytes)
        } catch {
            throw WireFormatError("the body is not JSON: \(error)")
        }
        try self.init(jsonValue: value)
    }

    /// Decodes a fetch answer already read as JSON. Throws ``WireFormatError``.
    public init(jsonValue value: JSONValue) throws(WireFormatError) {
        let object = try WireFormatError.object(value, "the body")
        appKey = try WireFormatError.string(object, "appKey")
        guard let dashboard = object["dashboard"], case .object = dashboard else { throw WireFormatError("'dashboard' must be an object") }
        self.dashboard = dashboard
        direction = try WireFormatError.string(object, "direction")
        locale = try WireFormatError.string(object, "locale")
        guard let look = object["look"], case .object = look else { throw WireFormatError("'look' must be an object") }
        self.look = look
        switch object["publishedAt"] {
        case .string(let text)?: publishedAt = text
        case .null?: publishedAt = nil
        default: throw WireFormatError("'publishedAt' must be a string or null")
        }
        switch object["draft"] {
        case nil: draft = nil
        case .bool(let flag)?: draft = flag
        default: throw WireFormatError("'draft' must be true or false")
        }
        texts = try FetchTexts(jsonValue: object["texts"] ?? .null)
        guard let version = object["version"]?.intValue, version >= 1 else { throw WireFormatError("'version' must be a whole number from 1") }
        self.version = version
        additionalMembers = JSONObject(object.members.lazy.filter { !Self.knownKeys.contains($0.key) }.map { ($0.key, $0.value) })
    }

    /// The body as JSON, every member's key in UTF-8 order, compact: the daemon's layout, so a decoded answer encodes
    /// back to the bytes it came from.
    public var jsonValue: JSONValue {
        var members = additionalMembers.dictionary
        members["appKey"] = .string(appKey)
        members["dashboard"] = dashboard
        members["direction"] = .string(direction)
        members["locale"] = .string(locale)
        members["look"] = look
        members["publishedAt"] = publishedAt.map(JSONValue.string) ?? .null
        if let draft { members["draft"] = .bool(draft) }
        members["texts"] = texts.jsonValue
        members["version"] = .number(JSONNumber(version))
        return .object(members)
    }

    /// ``jsonValue`` as compact bytes.
    public func jsonBytes() -> [UInt8] { JSONWriter.bytes(jsonValue) }

    /// The diagnostics of the server's dashboard-only look (warnings about fields a newer dashboard set), typed.
    /// An entry this client cannot read (no layer it knows) is skipped.
    public var serverDiagnostics: [Diagnostic] {
        guard case .array(let items)? = look["diagnostics"] else { return [] }
        return items.compactMap(Diagnostic.init(wire:))
    }
}

/// The fetch answer's `texts`: the reply expectation and each topic's label and prefill, in the answer's locale.
public struct FetchTexts: Sendable, Hashable {
    public struct Topic: Sendable, Hashable {
        public var id: String
        public var label: String
        public var prefill: String?
        public var additionalMembers: JSONObject

        public init(id: String, label: String, prefill: String?, additionalMembers: JSONObject = [:]) {
            self.id = id
            self.label = label
            self.prefill = prefill
            self.additionalMembers = additionalMembers
        }
    }

    public var replyExpectation: String
    public var topics: [Topic]
    public var additionalMembers: JSONObject

    public init(replyExpectation: String, topics: [Topic], additionalMembers: JSONObject = [:]) {
        self.replyExpectation = replyExpectation
        self.topics = topics
        self.additionalMembers = additionalMembers
    }

    /// Decodes `{"replyExpectation": …, "topics": [{"id", "label", "prefill"}]}`. Throws ``WireFormatError``.
    public init(jsonValue value: JSONValue) throws(WireFormatError) {
        let object = try WireFormatError.object(value, "'texts'")
        replyExpectation = try WireFormatError.string(object, "replyExpectation")
        guard case .array(let items)? = object["topics"] else { throw WireFormatError("'texts.topics' must be an array") }
        var topics: [Topic] = []
        topics.reserveCapacity(items.count)
        for item in items {
            let topic = try WireFormatError.object(item, "a topic text")
            let prefill: String?
            switch topic["prefill"] {
            case nil, .null?: prefill = nil
            case .string(let text)?: prefill = text
            default: throw WireFormatError("'prefill' must be a string or null")
            }
            topics.append(Topic(id: try WireFormatError.string(topic, "id"), label: try WireFormatError.string(topic, "label"), prefill: prefill,
                                additionalMembers: topic.without(["id", "label", "prefill"])))
        }
        self.topics = topics
        additionalMembers = object.without(["replyExpectation", "topics"])
    }

    public var jsonValue: JSONValue {
        var members = additionalMembers.dictionary
        members["replyExpectation"] = .string(replyExpectation)
        members["topics"] = .array(topics.map { topic in
            var members = topic.additionalMembers.dictionary
            members["id"] = .string(topic.id)
            members["label"] = .string(topic.label)
            members["prefill"] = topic.prefill.map(JSONValue.string) ?? .null
            return .object(members)
        })
        return .object(members)
    }
}

/// A fetch answer (or a cache file's body) that is not the documented wire format. `message` names the problem.
public struct WireFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    static func object(_ value: JSONValue, _ what: String) throws(WireFormatError) -> JSONObject {
        guard case .object(let object) = value else { throw WireFormatError("\(what) must be a JSON object, got a \(value.typeName)") }
        return object
    }

    static func string(_ object: JSONObject, _ key: String) throws(WireFormatError) -> String {
        guard case .string(let text)? = object[key] else { throw WireFormatError("'\(key)' must be a string") }
        return text
    }
}

extension JSONObject {
    /// The members whose keys are not in `keys`.
    func without(_ keys: Set<String>) -> JSONObject {
        JSONObject(members.lazy.filter { !keys.contains($0.key) }.map { ($0.key, $0.value) })
    }
}

extension Diagnostic {
    /// A diagnostic of the wire format (`{"code", "field", "layer", "message", "severity"}`), or nil when its layer
    /// or severity is not one this client knows. A code this client does not know is kept as `.unknown(name)`.
    init?(wire value: JSONValue) {
        guard case .object(let object) = value, let layer = object["layer"]?.stringValue.flatMap(LookLayer.init(rawValue:)),
              let field = object["field"]?.stringValue, let code = object["code"]?.stringValue,
              let message = object["message"]?.stringValue,
              let severity = object["severity"]?.stringValue.flatMap(Diagnostic.Severity.init(rawValue:)) else { return nil }
        self.init(layer: layer, field: field, code: Diagnostic.Code(rawValue: code), message: message, severity: severity)
    }
}
