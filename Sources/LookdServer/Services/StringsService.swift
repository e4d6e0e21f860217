import FNV
import StableJSON
import Strings
import Locking

/// The Strings library over HTTP: negotiation, each locale's merged catalog as cached response bytes
/// (with a strong ETag), and message formatting.
final class StringsService: Sendable {
    let localizer: Localizer
    /// `GET /v1/locales` bytes, built once: the 50 locales, each with `"pseudo": false`.
    let localesBody: [UInt8]
    /// `GET /v1/locales?pseudo=true`: the 50, then the pseudo-locales en-XA and ar-XB with `"pseudo": true` (for
    /// layout testing; only ever chosen by their exact tag).
    let localesWithPseudoBody: [UInt8]
    private let catalogs = LockedValue<[LocaleTag: CachedBody]>([:])
    /// Negotiation results by (lang, Accept-Language): the SDK sends the same few values over and
    /// over, and a matcher lookup costs ~1 µs. Bounded: emptied when it reaches `memoLimit`.
    private let memo = LockedValue<[String: (LocaleTag, Bool)]>([:])
    private static let memoLimit = 4096

    struct CachedBody: Sendable {
        var body: [UInt8]
        var etag: String
    }

    init(localizer: Localizer) {
        self.localizer = localizer
        func listing(_ infos: [LocaleInfo]) -> [UInt8] {
            let locales: [JSONValue] = infos.map { info in
                .object(["locale": .string(info.locale.identifier), "direction": .string(info.direction.rawValue),
                         "nativeName": .string(info.nativeName), "pseudo": .bool(info.isPseudo),
                         "pluralCategories": .array(info.pluralCategories.map { .string($0.rawValue) }),
                         "fallbackChain": Self.tags(localizer.fallbackChain(for: info.locale))])
            }
            return JSONWriter.bytes(.object(["locales": .array(locales)]))
        }
        localesBody = listing(LocaleInfo.all)
        localesWithPseudoBody = listing(LocaleInfo.allIncludingPseudo)
    }

    /// The locale for a request: `lang` (the SDK's explicit language; a well-formed BCP 47 tag) beats the
    /// `Accept-Language` value; no match gives English. Throws `StringsServiceError.langInvalid` for a malformed
    /// `lang` (also one with a control character, e.g. `de\u{0}fr`: never read as `de`).
    func negotiate(lang: String?, acceptLanguage: String?) throws -> (locale: LocaleTag, matched: Bool) {
        let header = acceptLanguage.map { String($0.prefix(1024)) }
        let memoKey = (lang ?? "") + "\u{0}" + (header ?? "")
        // Only valid `lang` values are remembered, so a hit needs no validation.
        if let known = memo.withLock({ $0[memoKey] }) { return known }
        if let lang { try Self.validate(lang) }
        let result = negotiateUncached(lang: lang, header: header)
        memo.withLock { memo in
            if memo.count >= Self.memoLimit { memo.removeAll(keepingCapacity: true) }
            memo[memoKey] = result
        }
        return result
    }

    /// The locale of an SDK fetch (as `negotiate`), and whether `lang` alone decides it: a `lang` that matches a locale
    /// by itself and gives the same one, so that no request field (Accept-Language) can change the answer and a cache
    /// may key it by the request target. Throws `StringsServiceError.langInvalid` for a malformed `lang`.
    func fetchLocale(lang: String?, acceptLanguage: String?) throws -> (locale: LocaleTag, decidedByLang: Bool) {
        let (locale, _) = try negotiate(lang: lang, acceptLanguage: acceptLanguage)
        guard let lang else { return (locale, false) }
        let alone = try negotiate(lang: lang, acceptLanguage: nil)
        return (locale, alone.matched && alone.locale == locale)
    }

    /// Longest `lang` accepted, in bytes (BCP 47 tags in use are far shorter; 35 is RFC 5646's advice for buffers).
    static let maxTagBytes = 35

    /// Checks a `lang` or `locale` value: a well-formed BCP 47 tag (Strings' `LanguageTag.isWellFormed`, the one
    /// validator) of at most `maxTagBytes` bytes. Throws `StringsServiceError.langInvalid`.
    static func validate(_ tag: String) throws {
        guard tag.utf8.count <= maxTagBytes, tag.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), LanguageTag.isWellFormed(tag) else {
            throw StringsServiceError.langInvalid
        }
    }

    private func negotiateUncached(lang: String?, header: String?) -> (locale: LocaleTag, matched: Bool) {
        let locale = localizer.negotiate(language: lang, acceptLanguage: header)
        // Whether a real match was made (false when English is only the default).
        let offered = (lang.map { [$0] } ?? []) + (header?.split(separator: ",").map {
            ($0.split(separator: ";").first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces)
        } ?? [])
        let matched = offered.contains { !$0.isEmpty && $0 != "*" && localizer.negotiator.matches(tag: $0) }
        return (locale, matched)
    }

    /// The locale's merged catalog: `{"direction","fallbackChain","locale","messages":{key:{"pattern","servedBy"}},"pluralCategories"}`.
    func catalog(_ locale: LocaleTag) -> CachedBody {
        if let hit = catalogs.withLock({ $0[locale] }) { return hit }
        let merged = localizer.catalogs(for: locale)
        var messages: [String: JSONValue] = [:]
        for (key, entry) in merged.entries {
            messages[key] = .object(["pattern": .string(entry.pattern), "servedBy": .string(entry.servedBy.identifier)])
        }
        let body = JSONWriter.bytes(.object([
            "locale": .string(locale.identifier), "direction": .string(Localizer.direction(of: locale).rawValue),
            "pluralCategories": .array(Localizer.pluralCategories(of: locale).map { .string($0.rawValue) }),
            "fallbackChain": Self.tags(merged.chain), "messages": .object(messages),
        ]))
        let built = CachedBody(body: body, etag: "\"\(locale.identifier)-\(FNV1a64.hex(body))\"")
        catalogs.withLock { $0[locale] = built }
        return built
    }

    /// Formats `key` with JSON `arguments`: numbers become integers (when whole) or doubles; a string
    /// becomes a date when the message uses that argument as a date or time (ISO 8601, or YYYY-MM-DD
    /// read as noon UTC). Throws `StringsServiceError.keyUnknown` / `.formatFailed` with the library's reason;
    /// never partial text.
    func format(key: String, locale: LocaleTag, arguments: [String: JSONValue]) throws -> FormattedMessage {
        do {
            let types = (try? localizer.structure(key: key, locale: locale).argumentTypes) ?? [:]
            var values: [String: Argument] = [:]
            for (name, value) in arguments {
                values[name] = try argument(name: name, value, wantsDate: types[name].map { $0.contains(.date) || $0.contains(.time) } ?? false)
            }
            return try localizer.format(key: key, locale: locale, arguments: values)
        } catch let error as FormatError {
            if case .unknownKey = error { throw StringsServiceError.keyUnknown(error.description) }
            throw StringsServiceError.formatFailed(error.description)
        }
    }

    /// Locale tags as a JSON array of their identifiers.
    private static func tags(_ locales: [LocaleTag]) -> JSONValue {
        .array(locales.map { .string($0.identifier) })
    }

    /// Most messages in one format batch.
    static let maxBatch = 200

    /// A format request's body: one message `{"locale", "key", "arguments"}` or a batch
    /// `{"locale", "messages": [{"key", "arguments"}]}` (at most `maxBatch`). Returns the negotiated locale and the
    /// answer's JSON bytes (`{"direction", "locale", "key", "servedBy", "text"}` or `{…, "messages": [...]}`).
    /// Throws `StringsServiceError` (`.requestInvalid`, `.langInvalid`, `.limitExceeded`, `.keyUnknown`, `.formatFailed`).
    func format(body: [UInt8]) throws -> (locale: LocaleTag, json: [UInt8]) {
        guard case .object(let object)? = try? JSONReader.read(body) else {
            throw StringsServiceError.requestInvalid("the body must be a JSON object")
        }
        var tag = "en"
        if let value = object["locale"] {
            guard case .string(let given) = value else { throw StringsServiceError.requestInvalid("locale must be a string") }
            try Self.validate(given)
            tag = given
        }
        let locale = localizer.negotiate(tag: tag)
        func one(_ item: JSONObject) throws -> [String: JSONValue] {
            guard case .string(let key)? = item["key"], !key.isEmpty else { throw StringsServiceError.requestInvalid("each message needs a \"key\" string") }
            var arguments: [String: JSONValue] = [:]
            if let value = item["arguments"] {
                guard case .object(let given) = value else { throw StringsServiceError.requestInvalid("arguments must be an object") }
                arguments = given.dictionary
            }
            let formatted = try format(key: key, locale: locale, arguments: arguments)
            return ["key": .string(key), "text": .string(formatted.text), "servedBy": .string(formatted.servedBy.identifier)]
        }
        var result: [String: JSONValue] = ["locale": .string(locale.identifier), "direction": .string(Localizer.direction(of: locale).rawValue)]
        if let messages = object["messages"] {
            guard case .array(let items) = messages else { throw StringsServiceError.requestInvalid("messages must be an array") }
            guard items.count <= Self.maxBatch else { throw StringsServiceError.limitExceeded("at most \(Self.maxBatch) messages per request") }
            result["messages"] = .array(try items.map { item in
                guard case .object(let fields) = item else { throw StringsServiceError.requestInvalid("each message must be an object") }
                return .object(try one(fields))
            })
        } else {
            for (name, value) in try one(object) { result[name] = value }
        }
        return (locale, JSONWriter.bytes(.object(result)))
    }

    /// `GET /v1/locales/match`'s answer: `{"direction", "fallbackChain", "locale", "matched"}`.
    func match(lang: String?, acceptLanguage: String?) throws -> (locale: LocaleTag, json: [UInt8]) {
        let (locale, matched) = try negotiate(lang: lang, acceptLanguage: acceptLanguage)
        let body = JSONWriter.bytes(.object([
            "locale": .string(locale.identifier), "matched": .bool(matched), "direction": .string(Localizer.direction(of: locale).rawValue),
            "fallbackChain": Self.tags(localizer.fallbackChain(for: locale)),
        ]))
        return (locale, body)
    }

    private func argument(name: String, _ value: JSONValue, wantsDate: Bool) throws -> Argument {
        switch value {
        case .number(let number):
            let double = number.double
            if double.rounded() == double, abs(double) < 9e15 { return .integer(Int64(double)) }
            return .double(double)
        case .string(let text):
            if wantsDate {
                guard let date = Argument.date(parsing: text) else {
                    throw StringsServiceError.formatFailed("argument '\(name)' is a date: send YYYY-MM-DD or an ISO 8601 date-time")
                }
                return .date(date)
            }
            return .string(text)
        default:
            throw StringsServiceError.formatFailed("argument '\(name)' must be a number or a string")
        }
    }
}
