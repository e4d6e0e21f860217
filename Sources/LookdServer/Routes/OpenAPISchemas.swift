import StringsLint

/// The JSON Schemas `/openapi.json` gives parameters, headers and bodies: exactly what the routes accept, so a
/// request generated from the description (schemathesis) is not refused for its shape. What a schema cannot say
/// (an app key's check characters, a catalog's contents) is in the description and answered 400.
enum OpenAPISchemas {
    typealias Schema = [String: Any]

    /// BCP 47 language[-Script][-REGION], a subset of what `lang` accepts (any well-formed tag of ≤ 35 bytes).
    static let languageTagPattern = "^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?$"
    /// `pk_live_` / `pk_test_` and 33 lower-case Crockford base32 characters (the last 7 are a CRC-32 check).
    static let appKeyPattern = "^pk_(live|test)_[0-9a-hjkmnp-tv-z]{33}$"
    /// A list of entity tags (`"…"` or `W/"…"`, comma-separated), or `*`.
    static let entityTagListPattern = #"^(\*|(W/)?"[\x21\x23-\x7E]*"( *, *(W/)?"[\x21\x23-\x7E]*")*)$"#
    /// A list of entity tags without `*`: `If-Match: *` is refused (428), a publish must name the version it replaces.
    static let entityTagsPattern = #"^(W/)?"[\x21\x23-\x7E]*"( *, *(W/)?"[\x21\x23-\x7E]*")*$"#

    static var appKey: Schema { ["type": "string", "pattern": appKeyPattern, "minLength": 41, "maxLength": 41,
                                 "examples": ["pk_live_540dxxtmh32jjac1btdv5rs11r3kjn166"]] }

    /// A query parameter's schema by name (every route uses the same names for the same things; only the report's
    /// `format` is json or html, given by `pattern`).
    static func query(_ name: String, pattern: String = "") -> Schema {
        switch (name, pattern.hasSuffix("/look/report")) {
        case ("format", true): ["type": "string", "enum": ["json", "html"]]
        case ("draft", _): ["type": "string", "enum": ["true", "false"]]
        case ("lang", _): ["type": "string", "pattern": languageTagPattern, "maxLength": StringsService.maxTagBytes]
        case ("app", _): appKey
        case ("appearance", _): ["type": "string", "enum": PreviewRequest.appearanceValues]
        case ("format", _): ["type": "string", "enum": LintFormat.allCases.map(\.rawValue)]
        case ("strict", _): ["type": "string", "enum": ["true", "false"]]
        case ("limit", _): ["type": "integer", "minimum": 1, "maximum": 1000]
        case ("to", _): ["type": "integer", "minimum": 1, "maximum": Int(Int32.max)]
        case ("after", _): ["type": "integer", "minimum": 0, "maximum": Int(Int64.max)]
        case ("wait", _): ["type": "integer", "minimum": 0, "maximum": ChangeFeedService.maxWaitSeconds]
        default: ["type": "string"]
        }
    }

    /// Query parameters that must be present.
    static let requiredQuery: Set<String> = ["to"]

    /// The request headers a route reads, beyond Authorization (a security scheme): name → (schema, description).
    static func headers(method: String, pattern: String) -> [(name: String, schema: Schema, description: String)] {
        let acceptLanguage: (name: String, schema: Schema, description: String) =
            ("Accept-Language", ["type": "string", "maxLength": 1024], "the user's languages; ?lang= wins")
        switch (method, pattern) {
        case ("GET", "/v1/apps/{appKey}/look"), ("GET", "/v1/strings"):
            let headers = [acceptLanguage, ("If-None-Match", ["type": "string", "pattern": entityTagListPattern] as Schema,
                                            "entity tags (weak comparison) or *: 304 when one matches")]
            guard pattern == "/v1/apps/{appKey}/look" else { return headers }
            return headers + [("Lookd-Preview", ["type": "string", "maxLength": 256] as Schema,
                               "a preview token: answer the app's draft (as ?preview=); 403 preview_token_invalid when it does not hold")]
        case ("GET", "/v1/locales/match"), ("GET", "/v1/preview"), ("POST", "/v1/preview"):
            return [acceptLanguage]
        case ("PUT", "/v1/apps/{appKey}/look"):
            return [("If-Match", ["type": "string", "pattern": entityTagsPattern],
                     "the current version's ETag, e.g. \"v3\" (another tag: 412; *: 428). Send it or If-None-Match, not both."),
                    ("If-None-Match", ["type": "string", "enum": ["*"]], "* for a new app's first version")]
        case ("POST", "/v1/apps/{appKey}/look/rollback"):
            return [("If-Match", ["type": "string", "pattern": entityTagsPattern], "optional: the current version's ETag (*: 428)")]
        case ("PUT", "/v1/apps/{appKey}/look/draft"):
            return [("If-Match", ["type": "string", "pattern": entityTagsPattern],
                     "the draft's ETag, e.g. \"d3\" (another tag: 412; *: 428). Send it or If-None-Match, not both."),
                    ("If-None-Match", ["type": "string", "enum": ["*"]], "* when the app has no draft")]
        case ("DELETE", "/v1/apps/{appKey}/look/draft"):
            return [("If-Match", ["type": "string", "pattern": entityTagsPattern], "optional: the draft's ETag, e.g. \"d3\"")]
        case ("POST", "/v1/apps/{appKey}/look/draft/publish"):
            return [("If-Match", ["type": "string", "pattern": entityTagsPattern],
                     "the LIVE version's ETag, e.g. \"v3\" (another tag: 412; *: 428). Send it or If-None-Match, not both."),
                    ("If-None-Match", ["type": "string", "enum": ["*"]], "* for a new app's first version")]
        case ("GET", "/v1/changes"):
            return [("Accept", ["type": "string", "maxLength": 256], "text/event-stream for server-sent events; anything else: JSON pages"),
                    ("Last-Event-ID", ["type": "string", "pattern": "^[0-9]{1,18}$"], "with text/event-stream: the last seq seen (wins over after)")]
        default:
            return []
        }
    }

    /// One change-feed event: the feed's element and a webhook's body.
    static var changeEvent: Schema {
        [
            "type": "object", "required": ["seq", "appKey", "version", "kind", "etag", "at"],
            "properties": [
                "seq": ["type": "integer", "minimum": 1, "description": "the feed position; only grows"] as Schema,
                "appKey": appKey,
                "version": ["type": "integer", "minimum": 1, "description": "the version this change made current"] as Schema,
                "kind": ["type": "string", "description": "publish, rollback; later kinds may appear: ignore unknown ones"] as Schema,
                "etag": ["type": "string", "description": "the version's ETag as a publish answers it, e.g. \"v3\""] as Schema,
                "at": ["type": "string", "format": "date-time", "description": "when the version was published (RFC 3339, UTC)"] as Schema,
            ],
        ]
    }

    /// A 2xx answer's content when it is not a plain object: nil for the default.
    static func responseContent(method: String, pattern: String, status: Int) -> Schema? {
        guard (method, pattern, status) == ("GET", "/v1/changes", 200) else { return nil }
        let page: Schema = [
            "type": "object", "required": ["events", "next"],
            "properties": ["events": ["type": "array", "items": ["$ref": "#/components/schemas/ChangeEvent"]] as Schema,
                           "next": ["type": "integer", "minimum": 0, "description": "the cursor to resume from"] as Schema],
        ]
        return ["application/json": ["schema": page] as Schema,
                "text/event-stream": ["schema": ["type": "string", "description": "id: SEQ / event: change / data: a ChangeEvent, per event"] as Schema] as Schema]
    }

    /// The webhook a receiver implements (`lookd serve --webhook URL`): one POST per event and receiver.
    static var webhooks: Schema {
        let header = { (description: String) -> Schema in ["required": true, "schema": ["type": "string"] as Schema, "description": description] }
        return ["change": ["post": [
            "summary": "A change-feed event, signed (docs/webhooks.md). Answer 2xx to acknowledge; 408, 429 and 5xx are retried with backoff; other 4xx stop this delivery.",
            "parameters": [
                ["name": "Lookd-Delivery", "in": "header"].merging(header("unique per event and receiver; the same on every retry: deduplicate on it")) { $1 },
                ["name": "Lookd-Signature", "in": "header"].merging(header("t=UNIX_SECONDS,v1=HEX: HMAC-SHA256 with the webhook secret over `UNIX_SECONDS.` and the body")) { $1 },
            ] as [Any],
            "requestBody": ["required": true, "content": ["application/json": ["schema": ["$ref": "#/components/schemas/ChangeEvent"]] as Schema] as Schema] as Schema,
            "responses": ["200": ["description": "acknowledged (any 2xx)"] as Schema] as Schema,
        ] as Schema] as Schema]
    }

    /// The request body's schema by route, or nil for a plain object.
    static func body(method: String, pattern: String, limits: Limits) -> Schema? {
        let layer: Schema = [
            "type": "object", "maxProperties": ServiceBounds.layerKeys,
            "description": "a look layer: accent, corners, font, headerStyle, replyExpectation, topics, appName, appIconUrl, hasBundleIcon, branding (unknown keys are warnings)",
            "properties": ["topics": ["type": "array", "maxItems": limits.maxTopics] as Schema],
        ]
        let layers: Schema = [
            "type": "object", "additionalProperties": false,
            "properties": ["dashboard": ["oneOf": [layer, ["type": "null"]]] as Schema, "code": ["oneOf": [layer, ["type": "null"]]] as Schema,
                           "inferred": ["oneOf": [layer, ["type": "null"]]] as Schema],
        ]
        let arguments: Schema = ["type": "object", "additionalProperties": ["type": ["number", "string"]] as Schema]
        switch (method, pattern) {
        case ("PUT", "/v1/apps/{appKey}/look"), ("PUT", "/v1/apps/{appKey}/look/draft"):
            return layer
        case ("POST", "/v1/looks/resolve"), ("POST", "/v1/preview"):
            return layers
        case ("POST", "/v1/strings/format"):
            let message: Schema = ["type": "object", "required": ["key"],
                                   "properties": ["key": ["type": "string", "minLength": 1] as Schema, "arguments": arguments]]
            return [
                "type": "object",
                "properties": ["locale": ["type": "string", "pattern": languageTagPattern] as Schema,
                               "key": ["type": "string", "minLength": 1] as Schema, "arguments": arguments,
                               "messages": ["type": "array", "maxItems": StringsService.maxBatch, "items": message] as Schema],
                "anyOf": [["required": ["key"]] as Schema, ["required": ["messages"]] as Schema],
                "description": "one message (key, arguments) or a batch (messages); an unknown key is 404",
            ]
        case ("POST", "/v1/lint"):
            let catalog: Schema = [
                "type": "object", "required": ["name", "text"],
                "properties": ["name": ["type": "string", "pattern": "^[^/\\\\\\u0000-\\u001f\\u007f]{1,32}$"] as Schema,
                               "text": ["type": "string", "description": "the catalog file's text: a JSON object of messages"] as Schema],
            ]
            let severity: Schema = ["type": "string", "enum": ["error", "warning", "off"]]
            let severities: Schema = ["type": "object", "additionalProperties": severity]
            let configuration: Schema = [
                "type": "object", "additionalProperties": false,
                "description": "the same as lookd lint --config's file (docs/lint.md); source defaults to en",
                "properties": [
                    "source": ["type": "string", "const": "en"] as Schema,
                    "locales": ["type": "array", "items": ["type": "string", "pattern": languageTagPattern] as Schema] as Schema,
                    "checks": severities,
                    "perLocale": ["type": "object", "additionalProperties": severities] as Schema,
                    "perKey": ["type": "object", "additionalProperties": severities] as Schema,
                    "allowIdentical": ["type": "array", "items": ["type": "string"] as Schema] as Schema,
                ],
            ]
            return [
                "type": "object", "required": ["catalogs"],
                "properties": ["catalogs": ["type": "array", "minItems": 1, "maxItems": limits.maxLintLocales, "items": catalog,
                                            "contains": ["type": "object", "properties": ["name": ["const": "en.json"] as Schema]] as Schema] as Schema,
                               "configuration": configuration],
                "description": "one catalog is the source, en.json, and its text must be a JSON object (else 400 lint_input_invalid); at most \(ServiceBounds.lintKeysPerCatalog) keys per catalog",
            ]
        default:
            return nil
        }
    }
}
