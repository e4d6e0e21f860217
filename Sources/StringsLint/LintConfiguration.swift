import Strings
import Foundation
import StableJSON

/// What a team tunes in `lookd-lint.json` (next to the catalogs, or `--config FILE`):
///
/// ```json
/// {
///   "source": "en",
///   "locales": ["de", "fr", "ja"],
///   "checks": {"too-long": "error", "end-punctuation": "off"},
///   "perLocale": {"th": {"end-punctuation": "off"}},
///   "perKey": {"brand.*": {"identical-to-source": "off"}, "store.plan.name": {"too-long": "off"}},
///   "allowIdentical": ["Ledgerly", "OK"]
/// }
/// ```
/// Every member is optional. A severity is "error", "warning" or "off". The most specific setting wins:
/// a key (an exact key beats a `prefix*` pattern, a longer prefix beats a shorter one), then a locale, then
/// `checks`, then the check's default.
public struct LintConfiguration: Sendable, Equatable {
    /// The source catalog's tag (its file is `<source>.json`); nil means "en".
    public var source: String?
    /// The catalog tags allowed as file names; nil means the 50 shipped locales (`LocaleTag.all`).
    public var locales: [String]?
    public var checks: [LintCheck: LintSeverity]
    public var perLocale: [String: [LintCheck: LintSeverity]]
    /// Key patterns (exact keys, or a prefix followed by `*`) and their severities.
    public var perKey: [String: [LintCheck: LintSeverity]]
    /// Values that may be identical to the source in any locale (brand names, "OK", …).
    public var allowIdentical: Set<String>

    public init(source: String? = nil, locales: [String]? = nil, checks: [LintCheck: LintSeverity] = [:],
                perLocale: [String: [LintCheck: LintSeverity]] = [:], perKey: [String: [LintCheck: LintSeverity]] = [:],
                allowIdentical: Set<String> = []) {
        self.source = source
        self.locales = locales
        self.checks = checks
        self.perLocale = perLocale
        self.perKey = perKey
        self.allowIdentical = allowIdentical
    }

    /// The file name for configuration next to the catalogs.
    public static let fileName = "lookd-lint.json"

    /// The source tag in effect.
    public var sourceTag: String { source ?? "en" }

    /// The allowed catalog tags in effect.
    public var allowedLocales: [String] { locales ?? LocaleTag.all.map(\.identifier) }

    /// The severity of `check` for a finding in `locale` about `key`.
    public func severity(of check: LintCheck, locale: String?, key: String?) -> LintSeverity {
        if let key, !perKey.isEmpty {
            if let exact = perKey[key]?[check] { return exact }
            var best: (length: Int, severity: LintSeverity)?
            for (pattern, severities) in perKey where pattern.hasSuffix("*") {
                guard let severity = severities[check] else { continue }
                let prefix = pattern.dropLast()
                if key.hasPrefix(prefix), prefix.count >= (best?.length ?? -1) { best = (prefix.count, severity) }
            }
            if let best { return best.severity }
        }
        if let locale, let severity = perLocale[locale]?[check] { return severity }
        return checks[check] ?? check.defaultSeverity
    }

    /// Reads `lookd-lint.json`. Unknown members, unknown check codes and bad severities are errors (a typo must
    /// not silently turn a check back on).
    public static func parse(_ data: Data) throws(LintConfigurationError) -> LintConfiguration {
        let object: JSONValue
        do {
            object = try JSONReader.read(data)
        } catch {
            throw LintConfigurationError("not valid JSON")
        }
        guard let root = object.objectValue else { throw LintConfigurationError("the top level must be an object") }
        var configuration = LintConfiguration()
        for (name, value) in root {
            switch name {
            case "source":
                guard let tag = value.stringValue else { throw LintConfigurationError("\"source\" must be a tag string") }
                configuration.source = tag
            case "locales":
                guard let tags = Self.strings(value) else { throw LintConfigurationError("\"locales\" must be an array of tag strings") }
                configuration.locales = tags
            case "checks":
                configuration.checks = try severities(value, at: "checks")
            case "perLocale", "perKey":
                guard let table = value.objectValue else { throw LintConfigurationError("\"\(name)\" must be an object") }
                var result: [String: [LintCheck: LintSeverity]] = [:]
                for (scope, entry) in table { result[scope] = try severities(entry, at: "\(name).\(scope)") }
                if name == "perLocale" { configuration.perLocale = result } else { configuration.perKey = result }
            case "allowIdentical":
                guard let values = Self.strings(value) else { throw LintConfigurationError("\"allowIdentical\" must be an array of strings") }
                configuration.allowIdentical = Set(values)
            default:
                throw LintConfigurationError("unknown member \"\(name)\" (source, locales, checks, perLocale, perKey, allowIdentical)")
            }
        }
        return configuration
    }

    /// The strings of an array that holds only strings; nil for anything else.
    private static func strings(_ value: JSONValue) -> [String]? {
        guard let elements = value.arrayValue else { return nil }
        let strings = elements.compactMap(\.stringValue)
        return strings.count == elements.count ? strings : nil
    }

    private static func severities(_ value: JSONValue, at path: String) throws(LintConfigurationError) -> [LintCheck: LintSeverity] {
        guard let table = value.objectValue else { throw LintConfigurationError("\"\(path)\" must be an object of check code → severity") }
        var result: [LintCheck: LintSeverity] = [:]
        for (code, level) in table {
            guard let check = LintCheck(rawValue: code) else { throw LintConfigurationError("\(path): unknown check \"\(code)\"") }
            guard let text = level.stringValue, let severity = LintSeverity(rawValue: text) else {
                throw LintConfigurationError("\(path).\(code): severity must be \"error\", \"warning\" or \"off\"")
            }
            result[check] = severity
        }
        return result
    }
}

/// A problem with `lookd-lint.json`.
public struct LintConfigurationError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
