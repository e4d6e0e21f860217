import Strings
import Testing
@testable import StringsFormats

/// The strings of an Xcode export that are no plural's (one `<trans-unit>` each) read as catalog entries straight
/// from their printf pieces. Expected patterns and problems worked out by hand from Apple's printf specifiers (`%@`
/// an object, `%lld` an integer) and ICU MessageFormat: a unit whose English cannot be read has no source entry and
/// is reported twice (what is wrong, then that it has no English), after every unit's reading problems; a
/// translation that cannot be read is left out and its English kept; an untranslated target is not a translation.
@Suite(.timeLimit(.minutes(10))) struct XLIFFSingleUnitTests {
    static let xliff = """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
        <file original="App/Localizable.xcstrings" source-language="en" target-language="de" datatype="plaintext">
        <header><tool tool-id="com.apple.dt.xcode" tool-name="Xcode" tool-version="15.2" build-num="15C500b"/></header>
        <body>
        <trans-unit id="liked" xml:space="preserve"><source>%@ liked your post</source><target state="translated">%@ mag deinen Beitrag</target><note>Shown in the feed</note></trans-unit>
        <trans-unit id="sure" xml:space="preserve"><source>%@ is 100% ☺</source><target state="translated">%@ ist 100% ☺</target></trans-unit>
        <trans-unit id="new" xml:space="preserve" maxwidth="30"><source>%lld new messages</source><target state="translated">%@ neue Nachrichten</target></trans-unit>
        <trans-unit id="braces" xml:space="preserve"><source>{%1$@} and %2$@'s</source><target state="needs-translation">{%1$@} und %2$@s</target></trans-unit>
        </body>
        </file>
        </xliff>
        """

    /// XLIFF 1.2's states whose target is no translation yet are `new` and `needs-translation`, exactly as spelled.
    @Test func untranslatedStatesByName() {
        #expect(XLIFFDocument.isUntranslated("new"))
        #expect(XLIFFDocument.isUntranslated("needs-translation"))
        for state in ["translated", "final", "needs-review-translation", "New", "new ", ""] {
            #expect(!XLIFFDocument.isUntranslated(state), "\(state)")
        }
    }

    /// A device variation's units without substitutions in the file are strings of their own, keyed by their ids; with
    /// a substitution of the varied key in the file, each is a plural's template. Worked out by hand.
    @Test func deviceVariationsAreTemplatesOnlyWithSubstitutions() throws {
        func file(_ units: String) -> [UInt8] {
            Array("""
                <?xml version="1.0" encoding="UTF-8"?>
                <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
                <file original="App/Localizable.xcstrings" source-language="en" target-language="de" datatype="plaintext">
                <header><tool tool-id="com.apple.dt.xcode" tool-name="Xcode" tool-version="15.2" build-num="15C500b"/></header>
                <body>\(units)</body></file></xliff>
                """.utf8)
        }
        let devices = """
            <trans-unit id="k|==|device.iphone" xml:space="preserve"><source>On iPhone</source><target state="translated">Auf dem iPhone</target></trans-unit>
            <trans-unit id="k|==|device.mac" xml:space="preserve"><source>On %@</source><target state="translated">Auf %@</target></trans-unit>
            """
        let (plain, plainProblems) = try XLIFFDocument(bytes: file(devices)).contentSkippingProblems()
        #expect(plain.source.map(\.key) == ["k|==|device.iphone", "k|==|device.mac"])
        #expect(plain.source.map(\.message) == ["On iPhone", "On {arg1}"])
        #expect((plain.translations[CatalogLocale(tag: "de")!] ?? []).map(\.pattern) == ["Auf dem iPhone", "Auf {arg1}"])
        #expect(plainProblems.isEmpty)
        let substituted = """
            <trans-unit id="k|==|device.iphone" xml:space="preserve"><source>%#@n@ on this iPhone</source><target state="translated">%#@n@ auf dem iPhone</target></trans-unit>
            <trans-unit id="k|==|device.mac" xml:space="preserve"><source>%#@n@ on this Mac</source><target state="translated">%#@n@ auf dem Mac</target></trans-unit>
            <trans-unit id="k|==|substitutions.n.plural.one" xml:space="preserve"><source>%lld file</source><target state="translated">%lld Datei</target></trans-unit>
            <trans-unit id="k|==|substitutions.n.plural.other" xml:space="preserve"><source>%lld files</source><target state="translated">%lld Dateien</target></trans-unit>
            """
        let (templated, _) = try XLIFFDocument(bytes: file(substituted)).contentSkippingProblems()
        // Each device's text is the template of a plural keyed by its unit id; the substitution's units are no string.
        #expect(templated.source.map(\.key) == ["k|==|device.iphone", "k|==|device.mac"])
        #expect(templated.source.map { $0.message.contains(", plural, ") } == [true, true])
    }

    @Test func singleUnitsBecomeEntriesAndProblems() throws {
        let (content, problems) = try XLIFFDocument(bytes: Array(Self.xliff.utf8)).contentSkippingProblems()
        #expect(content.source.map(\.key) == ["liked", "new", "braces"])
        #expect(content.source.map(\.message) == ["{arg1} liked your post", "{arg1, number, integer} new messages", "'{'{arg1}'}' and {arg2}'s"])
        #expect(content.source.map(\.description) == ["Shown in the feed", nil, nil])
        #expect(content.source.map(\.maxLength) == [nil, 30, nil])
        let german = content.translations[CatalogLocale(tag: "de")!] ?? []
        #expect(german.map(\.key) == ["liked"])
        #expect(german.map(\.pattern) == ["{arg1} mag deinen Beitrag"])
        #expect(problems.map { "\($0.key ?? "-") \($0.locale ?? "-") \($0.kind)" } == ["sure en syntax", "new de argumentType", "sure - unknownKey"])
        #expect(problems.map(\.reason) == [
            "malformed specifier '% ' (a percent sign is '%%' in a string with arguments)",
            "argument 1 is written '%@', the source passes it as '%lld'",
            "no English (source) text",
        ])
    }
}
