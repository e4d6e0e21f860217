import Foundation
import LookResolver

/// The app's published look: the SDK's fetch (public) and the dashboard's publish, history and
/// rollback (admin).
enum AppRoutes {
    static let keyDescription = "pk_live_… / pk_test_… app key"

    static func register(into router: inout Router, app: AppServices) {
        router.add(Route("GET", "/v1/apps/{appKey}/look", doc: RouteDoc(
            summary: "What the SDK fetches: the app's published dashboard layer, its version, the resolved look over the defaults, and its texts in the negotiated locale (?lang= beats Accept-Language). Strong ETag; If-None-Match gives 304.",
            responses: [200: "the published look", 304: "not modified (If-None-Match matched)",
                        400: "malformed app key (key_invalid) or language tag (lang_invalid)",
                        404: "no look published for this app (app_unknown)", 503: "store unavailable (store_unavailable)"],
            query: ["lang": "BCP 47 language tag, e.g. de or pt-BR; beats Accept-Language"])) { request in
            let key = try appKey(request)
            let (locale, _) = try app.strings.negotiate(request)
            let cached = try app.guardStore { try app.looks.fetch(appKey: key, locale: locale) }
            if let match = request.header("if-none-match"), entityTags(match).contains(where: { $0 == cached.etag || $0 == "*" || $0 == "W/" + cached.etag }) {
                return .prebuilt(cached.notModified)
            }
            return .prebuilt(cached.ok)
        })

        router.add(Route("PUT", "/v1/apps/{appKey}/look", doc: RouteDoc(
            summary: "Publish a new dashboard layer (admin). Needs If-Match with the current version's ETag, or If-None-Match: * for a new app. Validated first: a layer with errors is refused with 422 and the diagnostics.",
            responses: [200: "published as the next version", 201: "published as version 1 of a new app",
                        400: "malformed JSON, key or precondition; or over a limit", 401: "missing or wrong admin token (unauthorized)",
                        403: "admin API disabled: no token configured (forbidden)", 412: "the app's current version is not the one in If-Match / the app exists (version_conflict)",
                        413: "body over --max-body (body_too_large)", 415: "not JSON (unsupported_media_type)",
                        422: "the layer has errors (look_invalid; details: diagnostics)", 428: "no If-Match / If-None-Match (precondition_required)",
                        503: "store unavailable (store_unavailable)"],
            admin: true, requestBody: "the dashboard layer: {\"accent\": …, \"corners\": …, …}")) { request in
            try app.auth.authorize(request)
            let key = try appKey(request)
            let expected = try publishExpectation(request, required: true)
            let body = try jsonBody(request, limits: app.limits)
            let layer: JSONValue
            do {
                layer = try JSONDecoder().decode(JSONValue.self, from: Data(body))
            } catch {
                throw HTTPError.jsonInvalid("the body is not valid JSON")
            }
            guard case .object(let fields) = layer else { throw HTTPError.jsonInvalid("the dashboard layer must be a JSON object") }
            if case .array(let topics)? = fields["topics"], topics.count > app.limits.maxTopics {
                throw HTTPError.limitExceeded("the layer has \(topics.count) topics; at most \(app.limits.maxTopics) are accepted")
            }
            let diagnostics = validateLayer(layer, as: .dashboard)
            if diagnostics.contains(where: { $0.severity == .error }) {
                throw HTTPError(status: 422, code: "look_invalid", message: "the layer has errors; the published look is unchanged",
                                details: encodeSorted(diagnostics))
            }
            let stored = try published(app) { try app.looks.publish(appKey: key, layer: layer, expected: expected) }
            return publishResponse(key: key, stored, diagnostics: diagnostics)
        })

        router.add(Route("GET", "/v1/apps/{appKey}/look/history", doc: RouteDoc(
            summary: "The app's published versions, newest first, with their layers (admin).",
            responses: [200: "versions", 400: "malformed app key or limit", 401: "missing or wrong admin token (unauthorized)",
                        403: "admin API disabled (forbidden)", 404: "unknown app (app_unknown)", 503: "store unavailable (store_unavailable)"],
            admin: true, query: ["limit": "most versions to list, 1–1000 (default 50)"])) { request in
            try app.auth.authorize(request)
            let key = try appKey(request)
            let limit = try integerParameter(request, "limit", default: 50, range: 1...1000)
            let versions = try app.guardStore { try app.store.history(appKey: key, limit: limit) }
            guard let current = versions.first else { throw HTTPError.appUnknown(key) }
            var body = Array("{\"appKey\":\(jsonString(key)),\"currentVersion\":\(current.version),\"versions\":[".utf8)
            for (index, version) in versions.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body += Array("{\"etag\":\(jsonString("\"v\(version.version)\"")),\"layer\":".utf8) + Array(version.layer.utf8)
                body += Array(",\"publishedAt\":\(jsonString(version.publishedAt)),\"rolledBackFrom\":\(version.rolledBackFrom.map(String.init) ?? "null"),\"version\":\(version.version)}".utf8)
            }
            body += Array("]}".utf8)
            return Response.json(body, headers: [("Cache-Control", "no-store")])
        })

        router.add(Route("POST", "/v1/apps/{appKey}/look/rollback", doc: RouteDoc(
            summary: "Republish an old version as the next version (admin). If-Match, when sent, must name the current version.",
            responses: [201: "republished as the next version", 400: "malformed app key, version or precondition",
                        401: "missing or wrong admin token (unauthorized)", 403: "admin API disabled (forbidden)",
                        404: "unknown app (app_unknown) or version (version_unknown)", 412: "If-Match does not name the current version (version_conflict)",
                        503: "store unavailable (store_unavailable)"],
            admin: true, query: ["to": "the version to republish (required)"])) { request in
            try app.auth.authorize(request)
            let key = try appKey(request)
            guard request.query("to") != nil else { throw HTTPError.badRequest("parameter_invalid", "rollback needs ?to=VERSION") }
            let target = try integerParameter(request, "to", default: 0, range: 1...Int(Int32.max))
            let expected = try publishExpectation(request, required: false)
            if case .newApp? = expected { throw HTTPError.badRequest("precondition_invalid", "If-None-Match: * does not apply to a rollback") }
            let stored = try published(app) { try app.looks.rollback(appKey: key, to: target, expected: expected) }
            var response = publishResponse(key: key, stored, diagnostics: [])
            response.status = 201
            return response
        })
    }

    /// The validated `{appKey}` path parameter. Throws 400 `key_invalid` with the reason.
    static func appKey(_ request: Request) throws -> String {
        let key = request.parameters["appKey"] ?? ""
        if let problem = AppKey.problem(key) { throw HTTPError.keyInvalid(problem) }
        return key
    }

    /// Runs a publish; maps PublishConflict to 412 and StoreError to 503.
    private static func published(_ app: AppServices, _ body: () throws -> StoredVersion) throws -> StoredVersion {
        do {
            return try app.guardStore(body)
        } catch let conflict as PublishConflict {
            if let current = conflict.current {
                throw HTTPError.preconditionFailed("the app's current version is \(current); fetch it and retry with If-Match: \"v\(current)\"",
                                                   headers: [("ETag", "\"v\(current)\"")])
            }
            throw HTTPError.preconditionFailed("the app has no published look yet; publish it with If-None-Match: *")
        }
    }

    private static func publishResponse(key: String, _ stored: StoredVersion, diagnostics: [Diagnostic]) -> Response {
        var body = Array("{\"appKey\":\(jsonString(key)),\"diagnostics\":".utf8) + encodeSorted(diagnostics)
        body += Array(",\"etag\":\(jsonString("\"v\(stored.version)\"")),\"publishedAt\":\(jsonString(stored.publishedAt)),".utf8)
        body += Array("\"rolledBackFrom\":\(stored.rolledBackFrom.map(String.init) ?? "null"),\"version\":\(stored.version)}".utf8)
        return Response.json(body, status: stored.version == 1 ? 201 : 200,
                             headers: [("Location", "/v1/apps/\(key)/look"), ("Cache-Control", "no-store")])
    }

    /// Reads the publish precondition: `If-None-Match: *` (a new app) or `If-Match: "v<N>"` (also
    /// accepts a full fetch ETag `"v<N>-…"`; only the version is compared). Weak tags never match.
    /// Throws 428 when `required` and neither header is present, 400 `precondition_invalid` when malformed.
    static func publishExpectation(_ request: Request, required: Bool) throws -> PublishExpectation? {
        let ifMatch = request.header("if-match")
        let ifNoneMatch = request.header("if-none-match")
        switch (ifMatch, ifNoneMatch) {
        case (nil, nil):
            if required { throw HTTPError.preconditionRequired("send If-Match: \"v<current version>\", or If-None-Match: * for a new app") }
            return nil
        case (.some, .some):
            throw HTTPError.badRequest("precondition_invalid", "send If-Match or If-None-Match, not both")
        case (nil, let value?):
            guard value.trimmingCharacters(in: .whitespaces) == "*" else {
                throw HTTPError.badRequest("precondition_invalid", "a publish takes If-None-Match: * only (for a new app)")
            }
            return .newApp
        case (let value?, nil):
            let tags = entityTags(value)
            guard tags.count == 1, let tag = tags.first else {
                throw HTTPError.badRequest("precondition_invalid", "If-Match takes exactly one entity tag")
            }
            if tag == "*" { throw HTTPError.preconditionRequired("If-Match: * would overwrite blindly; send the current version's ETag") }
            if tag.hasPrefix("W/") { throw HTTPError.preconditionFailed("a weak entity tag never matches for a publish") }
            guard let version = versionOf(tag) else {
                throw HTTPError.badRequest("precondition_invalid", "If-Match takes the ETag of the current version, e.g. \"v3\"")
            }
            return .version(version)
        }
    }

    /// `"v12"` or `"v12-0123abcd…"` → 12.
    static func versionOf(_ tag: String) -> Int? {
        guard tag.count >= 4, tag.hasPrefix("\"v"), tag.hasSuffix("\"") else { return nil }
        let inner = tag.dropFirst(2).dropLast()
        let digits = inner.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, digits.count <= 9, digits.count == inner.count || inner[digits.endIndex] == "-" else { return nil }
        return Int(digits)
    }
}

/// Splits an If-Match / If-None-Match value into entity tags (kept with their quotes and `W/`).
func entityTags(_ value: String) -> [String] {
    value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

/// A query parameter as an integer in `range`, or `default` when absent. Throws 400 `parameter_invalid`.
func integerParameter(_ request: Request, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
    guard let text = request.query(name) else { return value }
    guard text.count <= 10, let number = Int(text), range.contains(number) else {
        throw HTTPError.badRequest("parameter_invalid", "\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
}

/// Checks a `lang` value against the BCP 47 shape (letters, digits and hyphens; a 2–3 or 5–8 letter
/// language subtag; subtags of 1–8 characters; at most 35 characters). Throws 400 `lang_invalid`.
func validateLanguageTag(_ tag: String) throws {
    guard isLanguageTagShape(tag) else { throw HTTPError.badRequest("lang_invalid", "lang takes a BCP 47 language tag such as de, pt-BR or zh-Hant") }
}

private func isLanguageTagShape(_ tag: String) -> Bool {
    let bytes = tag.utf8
    guard !bytes.isEmpty, bytes.count <= 35 else { return false }
    var subtagLength = 0
    var first = true
    for byte in bytes {
        let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        if byte == UInt8(ascii: "-") {
            guard subtagLength >= 1, subtagLength <= 8 else { return false }
            if first && !((2...3).contains(subtagLength) || (5...8).contains(subtagLength)) { return false }
            first = false
            subtagLength = 0
        } else if letter || (digit && !first) {
            subtagLength += 1
        } else {
            return false
        }
    }
    guard subtagLength >= 1, subtagLength <= 8 else { return false }
    return !first || (2...3).contains(subtagLength) || (5...8).contains(subtagLength)
}

/// Encodes a value with sorted keys. Diagnostics and our own structs always encode.
func encodeSorted<T: Encodable>(_ value: T) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map(Array.init) ?? Array("null".utf8)
}
