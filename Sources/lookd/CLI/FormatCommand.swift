import Foundation
import StableJSON
import Strings

/// `lookd format --locale ru --key thread.unread count=5 [name=…] [date=2026-11-12]`
enum FormatCommand: Command {
    static let name = "format"
    static let summary = "format a catalog message for a locale"
    static let usage = """
        lookd format --key KEY [--locale TAG] [--catalogs DIR] [--no-isolate] [--json] NAME=VALUE...
        --locale is negotiated (es-MX → es-419); default en. Values: integers and decimals are numbers,
        YYYY-MM-DD (noon UTC) and ISO 8601 date-times are dates, anything else is a string. Force a kind with
        NAME:string=…, NAME:int=…, NAME:double=…, NAME:date=…. Prints the text; --json adds which catalog served it.
        Catalogs: --catalogs DIR, else $LOOKD_CATALOGS, else ./Resources/Localizations, else the package's.
        """

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectUnknown(["key", "locale", "catalogs", "no-isolate", "json"])
        guard let key = arguments.value("key") else { throw UsageError("--key is required\n\(usage)") }
        let localizer = try CatalogLocator.localizer(arguments)
        var locale = LocaleTag.english
        if let requested = arguments.value("locale") {
            guard LanguageTag.isWellFormed(requested.replacingOccurrences(of: "_", with: "-")) else {
                throw UsageError("--locale '\(requested)' is not a BCP 47 language tag")
            }
            locale = localizer.negotiate(tag: requested)
        }
        var values: [String: Argument] = [:]
        for item in arguments.positionals {
            let (name, value) = try parse(item)
            values[name] = value
        }
        let options = FormatOptions(isolateStrings: !arguments.flag("no-isolate"))
        let result: FormattedMessage
        do {
            result = try localizer.format(key: key, locale: locale, arguments: values, options: options)
        } catch let error as FormatError {
            throw UsageError(error.description)
        }
        if arguments.flag("json") {
            let object: JSONValue = .object(["key": .string(key), "locale": .string(result.locale.identifier),
                                             "servedBy": .string(result.servedBy.identifier), "text": .string(result.text),
                                             "direction": .string(Localizer.direction(of: locale).rawValue)])
            Console.write(Data(JSONWriter.bytes(object) + Array("\n".utf8)))
        } else {
            print(result.text)
        }
        return 0
    }

    /// `name=value`, with an optional `:kind` after the name.
    static func parse(_ item: String) throws -> (String, Argument) {
        guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
            throw UsageError("argument '\(item)' is not NAME=VALUE")
        }
        var name = String(item[..<equals])
        let text = String(item[item.index(after: equals)...])
        var kind: String?
        if let colon = name.firstIndex(of: ":") {
            kind = String(name[name.index(after: colon)...])
            name = String(name[..<colon])
        }
        switch kind {
        case nil:
            if let integer = Int64(text) { return (name, .integer(integer)) }
            if let double = Double(text), text.contains(".") || text.lowercased().contains("e"), double.isFinite {
                return (name, .double(double))
            }
            if let date = Argument.date(parsing: text) { return (name, .date(date)) }
            return (name, .string(text))
        case "string": return (name, .string(text))
        case "int":
            guard let integer = Int64(text) else { throw UsageError("\(name): '\(text)' is not an integer") }
            return (name, .integer(integer))
        case "double":
            guard let double = Double(text), double.isFinite else { throw UsageError("\(name): '\(text)' is not a number") }
            return (name, .double(double))
        case "date":
            guard let date = Argument.date(parsing: text) else { throw UsageError("\(name): '\(text)' is not YYYY-MM-DD or an ISO 8601 date-time") }
            return (name, .date(date))
        case .some(let other):
            throw UsageError("unknown kind '\(other)' (string, int, double, date)")
        }
    }
}
