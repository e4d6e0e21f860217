import Foundation
import LookResolver
import Strings
import Synchronization

/// The Strings library over HTTP: negotiation, each locale's merged catalog as cached response bytes
/// (with a strong ETag), and message formatting.
final class StringsService: Sendable {
    let localizer: Localizer
    /// `GET /v1/locales` bytes, built once.
    let localesBody: [UInt8]
    private let catalogs = Mutex<[LocaleTag: CachedBody]>([:])
    /// Negotiation results by (lang, Accept-Language): the SDK sends the same few values over and
    /// over, and a matcher lookup costs ~1 µs. Bounded: emptied when it reaches `memoLimit`.
    private let memo = Mutex<[String: (LocaleTag, Bool)]>([:])
    private static let memoLimit = 4096

    struct CachedBody: Sendable {
        var body: [UInt8]
        var etag: String
    }

    init(localizer: Localizer) {
        self.localizer = localizer
        let locales: [[String: Any]] = LocaleInfo.all.map { info in
            ["locale": info.locale.identifier, "direction": info.direction.rawValue, "nativeName": info.nativeName,
             "pluralCategories": info.pluralCategories.map(\.rawValue),
             "fallbackChain": localizer.fallbackChain(for: info.locale).map(\.identifier)]
        }
        localesBody = Array((try? JSONSerialization.data(withJSONObject: ["locales": locales], options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
    }

    /// The locale for a request: `lang` (validated; the SDK's explicit language) beats `Accept-Language`;
    /// no match gives English. Throws 400 `lang_invalid` for a malformed `lang`.
    func negotiate(_ request: Request) throws -> (locale: LocaleTag, matched: Bool) {
        let lang = request.query("lang")
        if let lang { try validateLanguageTag(lang) }
        let header = request.header("accept-language").map { String($0.prefix(1024)) }
        let memoKey = (lang ?? "") + "\u{0}" + (header ?? "")
        if let known = memo.withLock({ $0[memoKey] }) { return known }
        let result = negotiateUncached(lang: lang, header: header)
        memo.withLock { memo in
            if memo.count >= Self.memoLimit { memo.removeAll(keepingCapacity: true) }
            memo[memoKey] = result
        }
        return result
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
        var messages: [String: Any] = [:]
        for (key, entry) in merged.entries {
            messages[key] = ["pattern": entry.pattern, "servedBy": entry.servedBy.identifier]
        }
        let object: [String: Any] = [
            "locale": locale.identifier, "direction": Localizer.direction(of: locale).rawValue,
            "pluralCategories": Localizer.pluralCategories(of: locale).map(\.rawValue),
            "fallbackChain": merged.chain.map(\.identifier), "messages": messages,
        ]
        let body = Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
        let built = CachedBody(body: body, etag: "\"\(locale.identifier)-\(fnv1a64Hex(body))\"")
        catalogs.withLock { $0[locale] = built }
        return built
    }

    /// Formats `key` with JSON `arguments`: numbers become integers (when whole) or doubles; a string
    /// becomes a date when the message uses that argument as a date or time (ISO 8601, or YYYY-MM-DD
    /// read as noon UTC). Throws 400 `format_failed` with the library's reason; never partial text.
    func format(key: String, locale: LocaleTag, arguments: [String: JSONValue]) throws -> FormattedMessage {
        do {
            let types = (try? localizer.structure(key: key, locale: locale).argumentTypes) ?? [:]
            var values: [String: Argument] = [:]
            for (name, value) in arguments {
                values[name] = try argument(name: name, value, wantsDate: types[name].map { $0.contains(.date) || $0.contains(.time) } ?? false)
            }
            return try localizer.format(key: key, locale: locale, arguments: values)
        } catch let error as FormatError {
            if case .unknownKey = error { throw HTTPError(status: 404, code: "key_unknown", message: error.description) }
            throw HTTPError.badRequest("format_failed", error.description)
        }
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
                    throw HTTPError.badRequest("format_failed", "argument '\(name)' is a date: send YYYY-MM-DD or an ISO 8601 date-time")
                }
                return .date(date)
            }
            return .string(text)
        default:
            throw HTTPError.badRequest("format_failed", "argument '\(name)' must be a number or a string")
        }
    }
}
