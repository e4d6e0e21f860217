import Strings
/// How serious a finding is. `off` only appears in configuration: a check set to `off` reports nothing.
public enum LintSeverity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case off, warning, error

    public static func < (lhs: LintSeverity, rhs: LintSeverity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Every check `lookd lint` runs. The raw value is the check's stable code: it appears in every output format,
/// in `lookd-lint.json` and in baselines, and never changes meaning. The README (section `lookd lint`) documents each one.
public enum LintCheck: String, Sendable, Hashable, Codable, CaseIterable {
    // Errors: the catalog is broken or the message would format wrongly at run time.
    case unreadableFile = "unreadable-file"
    case invalidUTF8 = "invalid-utf8"
    case invalidJSON = "invalid-json"
    case duplicateKey = "duplicate-key"
    case fileName = "file-name"
    case missingKey = "missing-key"
    case syntaxError = "syntax-error"
    case argumentMismatch = "argument-mismatch"
    case argumentType = "argument-type"
    case missingOther = "missing-other"
    case missingPluralCategory = "missing-plural-category"
    case controlCharacter = "control-character"
    case unbalancedBidi = "unbalanced-bidi"
    case unsupportedConstruct = "unsupported-construct"
    // Warnings: probably a mistake; a team may turn them up to errors or off in lookd-lint.json.
    case extraKey = "extra-key"
    case unreachablePluralCategory = "unreachable-plural-category"
    case missingDecimalCategory = "missing-decimal-category"
    case identicalToSource = "identical-to-source"
    case tooLong = "too-long"
    case whitespace = "whitespace"
    case endPunctuation = "end-punctuation"
    case emptyValue = "empty-value"
    case spaceAroundCJKPlaceholder = "space-around-cjk-placeholder"
    case suffixOnPlainArgument = "suffix-on-plain-argument"
    case translationState = "translation-state"
    case unknownLocale = "unknown-locale"
    case markupMismatch = "markup-mismatch"

    /// The stable code, e.g. "missing-key".
    public var code: String { rawValue }

    /// The severity when no configuration changes it.
    public var defaultSeverity: LintSeverity {
        switch self {
        case .unreadableFile, .invalidUTF8, .invalidJSON, .duplicateKey, .fileName, .missingKey, .syntaxError,
             .argumentMismatch, .argumentType, .missingOther, .missingPluralCategory, .controlCharacter, .unbalancedBidi,
             .unsupportedConstruct:
            .error
        case .extraKey, .unreachablePluralCategory, .missingDecimalCategory, .identicalToSource, .tooLong,
             .whitespace, .endPunctuation, .emptyValue, .spaceAroundCJKPlaceholder, .suffixOnPlainArgument,
             .translationState, .unknownLocale, .markupMismatch:
            .warning
        }
    }

    /// A one-line title (SARIF `shortDescription`, docs headings).
    public var title: String {
        switch self {
        case .unreadableFile: "Catalog file cannot be read"
        case .invalidUTF8: "Catalog file is not valid UTF-8"
        case .invalidJSON: "Catalog file is not a JSON object of messages"
        case .duplicateKey: "Key written twice in one JSON object"
        case .fileName: "File name is not a configured locale tag"
        case .missingKey: "Source key missing from a locale catalog"
        case .syntaxError: "MessageFormat syntax error"
        case .argumentMismatch: "Arguments differ from the source"
        case .argumentType: "Argument type differs from the source"
        case .missingOther: "Plural or select without an `other` case"
        case .missingPluralCategory: "Plural lacks a category that integers select"
        case .controlCharacter: "Control character in a message"
        case .unbalancedBidi: "Unbalanced bidirectional control characters"
        case .extraKey: "Key not in the source catalog"
        case .unreachablePluralCategory: "Plural category the locale never selects"
        case .missingDecimalCategory: "Plural lacks a category only decimals or large numbers select"
        case .identicalToSource: "Translation identical to the source"
        case .tooLong: "Longer than the source's maximum length"
        case .whitespace: "Leading or trailing whitespace differs from the source"
        case .endPunctuation: "Final punctuation differs from the source"
        case .emptyValue: "Empty message"
        case .spaceAroundCJKPlaceholder: "Space between a date or time and Chinese or Japanese text"
        case .suffixOnPlainArgument: "Case ending or particle joined to a name argument"
        case .unsupportedConstruct: "Construct lookd cannot read without losing meaning"
        case .translationState: "Translation not in a translated state"
        case .unknownLocale: "Locale without ICU data"
        case .markupMismatch: "Styling tags differ from the source"
        }
    }

    /// What the check looks for and why it matters (SARIF `fullDescription`, docs).
    public var explanation: String {
        switch self {
        case .unreadableFile:
            "The file could not be read (permissions, a dangling link, a folder named like a catalog)."
        case .invalidUTF8:
            "Catalogs are UTF-8. An invalid byte sequence is reported where it starts; the rest of the file is not checked."
        case .invalidJSON:
            "The file is not JSON, its top level is not an object, an entry is neither a string nor an object with a string \"message\", or a string holds a raw control character (JSON requires \\n, \\t, \\uHHHH)."
        case .duplicateKey:
            "A key appears twice in one JSON object. JSON decoders silently keep the last one, so the first is dead text that reviewers still read."
        case .fileName:
            "A catalog's file name must be a well-formed BCP 47 tag and one of the configured locales (the 50 shipped locales unless lookd-lint.json lists others), spelled exactly (pt-BR.json, not pt_BR.json or pt-br.json)."
        case .missingKey:
            "A key of the source catalog has no translation in this locale; users see the fallback language."
        case .syntaxError:
            "ICU's MessageFormat parser rejects the pattern (unmatched braces, a bad argument type, a duplicate plural key, …). The position is inside the file."
        case .argumentMismatch:
            "The translation uses an argument the source does not have, or drops one the source has (a renamed or dropped {name})."
        case .argumentType:
            "An argument is used with a different type than in the source (plural vs select vs number vs date vs plain): the value the app passes will not format as intended."
        case .missingOther:
            "Every plural, selectordinal and select needs an `other` case; ICU refuses the pattern without one."
        case .missingPluralCategory:
            "The locale's CLDR plural rules (from the ICU in use; ordinal rules for selectordinal) select this category for some integer from 0 to 1,000, and the plural has neither that category nor `=n` cases covering all those integers: those counts fall back to `other` and read wrongly."
        case .controlCharacter:
            "A control character other than newline and tab (C0, DEL or C1) is in a message."
        case .unbalancedBidi:
            "A bidirectional embedding, override (LRE, RLE, LRO, RLO) or isolate (LRI, RLI, FSI) is opened and not closed (PDF, PDI), or closed without being opened. It leaks into the surrounding text."
        case .extraKey:
            "The locale has a key the source catalog does not: dead text, or a key renamed in the source and not here."
        case .unreachablePluralCategory:
            "The plural has a category the locale's plural rules never select (e.g. `few` in German): dead text, often copied from another language."
        case .missingDecimalCategory:
            "The locale has a category that only decimals or numbers above 1,000 select (e.g. French `many` for 1,000,000), and the plural lacks it."
        case .identicalToSource:
            "The translation equals the source text in a locale of another language, and either the locale writes another script than the source or the text has two or more words (a single same-script word is often a loanword or cognate: \"Support\" in German). Brand names and the like can be allowed in lookd-lint.json (`allowIdentical`). Texts without letters are never reported."
        case .tooLong:
            "The longest text the message can show (longest plural/select branch, arguments not counted) has more characters than the source's maxLength."
        case .whitespace:
            "The translation starts or ends with whitespace where the source does not, or the other way round. A translation ending in full-width punctuation (：。，！？, whose glyph carries its own spacing) where the source ends with a space is not reported."
        case .endPunctuation:
            "The translation ends with different punctuation than the source (a full stop, question mark, exclamation mark, colon or ellipsis), counting script equivalents such as 。 ؟ । as the same."
        case .emptyValue:
            "The message is an empty string."
        case .spaceAroundCJKPlaceholder:
            "In a Chinese or Japanese catalog, a space separates a date or time argument from Han, kana or CJK punctuation on a side where the argument itself shows CJK text (ICU renders {date, date, ::dMMM} as 11月3日): the reader sees a gap these languages never write (将于 11月3日 续订). A side where the argument shows digits (01:05) is not reported."
        case .suffixOnPlainArgument:
            "In a language whose case endings and postpositions attach to the word and change form with it (Indic and Dravidian, Turkic, Uralic languages; Korean for the particles that alternate after a vowel or consonant, 을/를, 이/가, 은/는, 와/과, (으)로), a letter, or a hyphen, apostrophe or colon and a letter, follows a plain argument ({appName}ର, {product}-এর, {appName}'a, {plan}을). A plain argument holds a name the translator never sees, often Latin and several words long, so the ending's form cannot be right for every name: put a noun after the name to take the ending ({appName} ଆପର). Date, time and number arguments, whose rendering the locale fixes, are not checked; nor is Japanese, whose particles never change form."
        case .unsupportedConstruct:
            "String Catalogs, Android resources and XLIFF only: something lookd cannot map to a MessageFormat message without misreading it (device or width variations, markup inside an Android string, a locale outside the configured ones, a plural exact value other than 0). It is reported, not guessed at; docs/formats.md lists the mappings."
        case .translationState:
            "String Catalogs and XLIFF only: a localization whose state says it is not done (`new`, `needs_review`, `stale`; XLIFF `new`, `needs-translation`, `needs-review-translation`, …)."
        case .markupMismatch:
            "Android resources only: a translation's styling tags (<b>, <i>, <u>, <a>, …) are not the source's, tag for tag: a lost link or emphasis, or markup the source never had."
        case .unknownLocale:
            "String Catalogs, Android resources and XLIFF only: a locale whose language ICU has no data for (Old English `ang`, a private code). It is linted with the root locale's rules (plural category `other` only, no script), so plural and script checks cannot be trusted for it. Reported once per locale."
        }
    }
}
