import CICU

/// BCP 47 tag facts from ICU's data, for any tag (not only the 50).
public enum LanguageTag {
    /// True when ICU parses all of `tag` as a well-formed BCP 47 tag ("en-GB", "zh-Hant-MO", "x-klingon").
    /// `_` is not accepted ("en_US" is not BCP 47); empty text is not well-formed.
    public static func isWellFormed(_ tag: String) -> Bool {
        ICUText.withUTF8(tag) { lookd_locale_is_well_formed($0, $1) == 1 }
    }

    /// The canonical form ("iw" → "he", "EN-us" → "en-US", "sh" → "sr-Latn"), or nil when not well-formed.
    public static func canonicalize(_ tag: String) -> String? {
        ICUText.withUTF8(tag) { bytes, length in
            ICUText.string(capacity: 64) { lookd_locale_canonicalize(bytes, length, $0, $1) }
        }
    }

    /// The tag with CLDR's likely subtags added ("zh-MO" → "zh-Hant-MO", "pt" → "pt-Latn-BR"),
    /// or nil when not well-formed.
    public static func maximize(_ tag: String) -> String? {
        ICUText.withUTF8(tag) { bytes, length in
            ICUText.string(capacity: 64) { lookd_locale_maximize(bytes, length, $0, $1) }
        }
    }

    /// CLDR's explicit parent locale as ICU 72's data records it ("es-MX" → "es-419", "zh-Hant" → "root",
    /// "nb" → "no"); nil when the data has none and the parent is found by truncation.
    public static func explicitParent(_ tag: String) -> String? {
        let parent = ICUText.withUTF8(tag) { bytes, length in
            ICUText.string(capacity: 32) { lookd_locale_explicit_parent(bytes, length, $0, $1) }
        }
        guard let parent, !parent.isEmpty else { return nil }
        return parent
    }

    /// Every locale ID in ICU's data, as ICU spells them ("nb_NO"), legacy aliases included ("no_NO", "iw", "sh").
    /// For tests that must cover all of ICU's data.
    static var icuLocaleIdentifiers: [String] {
        let list = ICUText.string(capacity: 16_384) { lookd_locale_available_ids($0, $1) } ?? ""
        return list.split(separator: " ").map(String.init)
    }

    /// True when ICU's data has locale data for the tag's language ("en-GB", "eu", "nl-BE", "sr-Latn", "ckb"):
    /// its plural rules, direction and likely script are then the language's own, not the root locale's.
    /// False for a tag that is not well-formed or whose language ICU does not know ("tlh", "xx"). Thread-safe;
    /// the list of ICU's languages is read once.
    public static func hasLocaleData(_ tag: String) -> Bool {
        guard isWellFormed(tag) else { return false }
        let language = subtags(tag).language.lowercased()
        return icuLanguages.contains(language) || icuLanguages.contains(subtags(canonicalize(tag) ?? tag).language.lowercased())
    }

    /// The language subtags of every locale in ICU's data ("en", "nb", "ckb").
    private static let icuLanguages: Set<String> = Set(icuLocaleIdentifiers.map { id in
        String(id.split(separator: "_", maxSplits: 1).first ?? "").lowercased()
    })

    /// The language, script and region subtags of a BCP 47 tag (script and region nil when absent).
    /// Variants and extensions are ignored. Does not validate; split on "-".
    public static func subtags(_ tag: String) -> (language: String, script: String?, region: String?) {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        let language = parts.first.map(String.init) ?? ""
        var script: String?
        var region: String?
        var index = 1
        if index < parts.count, parts[index].count == 4, parts[index].allSatisfy(\.isLetter) {
            script = String(parts[index])
            index += 1
        }
        if index < parts.count,
           (parts[index].count == 2 && parts[index].allSatisfy(\.isLetter))
            || (parts[index].count == 3 && parts[index].allSatisfy(\.isNumber)) {
            region = String(parts[index])
        }
        return (language, script, region)
    }

    /// Trims whitespace and turns `_` into `-`, the forms people and old systems send ("en_US", " de ").
    static func normalizeSeparators(_ tag: Substring) -> String {
        // Fast path (the usual case): ASCII with nothing to trim or replace — no Character work at all.
        let bytes = tag.utf8
        if let first = bytes.first, let last = bytes.last, !isASCIISpace(first), !isASCIISpace(last), first < 0x80, last < 0x80,
           !bytes.contains(UInt8(ascii: "_")) {
            return String(tag)
        }
        var trimmed = tag
        while let first = trimmed.first, first.isWhitespace { trimmed.removeFirst() }
        while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
        if !trimmed.utf8.contains(UInt8(ascii: "_")) { return String(trimmed) }
        return String(decoding: trimmed.utf8.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: "-") : $0 }, as: UTF8.self)
    }

    private static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}
