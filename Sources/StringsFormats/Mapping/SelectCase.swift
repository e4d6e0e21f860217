import Foundation

/// One case of a select that is a whole message, exported as its own string (String Catalogs and Android
/// resources have no select): `header.status` with `{status, select, online {…} away {…} other {…}}` becomes
/// `header.status[status=online]`, `…[status=away]`, `…[status=other]` in a String Catalog and
/// `header.status__status__online`, … in Android resources. The app picks the key by the value it has. Reading
/// the keys back rebuilds the select, cases in source order.
public struct SelectCase: Sendable, Hashable {
    public let argument: String
    public let value: String

    public init(argument: String, value: String) {
        self.argument = argument
        self.value = value
    }

    /// `key[argument=value]`.
    public func appleKey(_ key: String) -> String { "\(key)[\(argument)=\(value)]" }

    /// `key__argument__value`.
    public func androidName(_ name: String) -> String { "\(name)__\(argument)__\(value)" }

    /// Splits a String Catalog key written by `appleKey`; nil for any other key.
    public static func parse(appleKey: String) -> (key: String, selectCase: SelectCase)? {
        guard appleKey.hasSuffix("]"), let open = appleKey.lastIndex(of: "[") else { return nil }
        let inside = appleKey[appleKey.index(after: open)..<appleKey.index(before: appleKey.endIndex)]
        let parts = inside.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (String(appleKey[..<open]), SelectCase(argument: String(parts[0]), value: String(parts[1])))
    }

    /// Splits an Android resource name written by `androidName`; nil when it has no `__`.
    public static func parse(androidName: String) -> (name: String, selectCase: SelectCase)? {
        let parts = androidName.components(separatedBy: "__")
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        return (parts[0], SelectCase(argument: parts[1], value: parts[2]))
    }

    /// `parse(androidName:)` for a resource of a file whose resource names are `names`: a select case only when
    /// its select has an `other` case there (`name__argument__other`), as every select lookd writes has (ICU
    /// requires one). Files lookd did not write use `__` freely (AnkiDroid's `error__etc__unknown_error`,
    /// `pref__backups_help__summary`): those names are keys as they stand.
    public static func parse(androidName: String, among names: Set<String>) -> (name: String, selectCase: SelectCase)? {
        guard let split = parse(androidName: androidName),
              names.contains(SelectCase(argument: split.selectCase.argument, value: "other").androidName(split.name)) else { return nil }
        return split
    }
}
