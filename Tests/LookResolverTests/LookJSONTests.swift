import Foundation
import Testing
@testable import LookResolver
import StableJSON

@Suite("Layers read strictly, looks written stably", .timeLimit(.minutes(10)))
struct LookJSONTests {
    func inputError(_ text: String) -> LookInputError? {
        do {
            _ = try LookLayers(json: Data(text.utf8))
            return nil
        } catch {
            return error as? LookInputError
        }
    }

    @Test("what lenient parsers accept is an input error naming the problem and where it is")
    func strictInput() throws {
        let duplicate = try #require(inputError(##"{"dashboard": {"accent": "#FF0000", "accent": "#00FF00"}}"##))
        #expect(duplicate.readError?.code == .duplicateKey)
        #expect(duplicate.message.contains("\"accent\" appears twice"))
        #expect(duplicate.message.contains("line 1, column 37"))
        #expect(inputError(#"{"code": {"font": "serif",}}"#)?.readError?.code == .trailingComma)
        #expect(inputError("\u{FEFF}{}")?.readError?.code == .invalidEncoding)
        #expect(inputError(#"{"code": {"font": "serif"}} // done"#)?.readError?.code == .trailingContent)
        let utf16 = Array("{}".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(throws: LookInputError.self) { try LookLayers(json: utf16) }
        #expect(inputError(#"{"dashboard": {"topics": []}}"#) == nil)
    }

    @Test("a number in a layer is kept exactly as sent")
    func exactNumbers() throws {
        let layers = try LookLayers(json: Data(#"{"code": {"mystery": 9007199254740993}}"#.utf8))
        #expect(layers.code?["mystery"]?.numberValue?.literal == "9007199254740993")
    }

    @Test("the look's bytes are the writer's bytes of its own tree: sorted keys, compact")
    func canonicalBytes() throws {
        let samples = [
            LookLayers(),
            LookLayers(
                dashboard: .object(["accent": .object(["light": .string("#FFD60A"), "dark": .string("#5E5CE6")]), "corners": .string("pill"),
                                    "topics": .array([.string("billing"), .object(["id": .string("plans"), "label": .object(["en": .string("Plans"), "de": .string("Tarife")]), "prefill": .string("Hi \"there\" \u{1} / é")])]),
                                    "appIconUrl": .string("https://cdn.example.com/icon.png")]),
                code: .object(["font": .string("rounded"), "appName": .number(5)]),
                inferred: .object(["appName": .string("Élan"), "hasBundleIcon": .bool(false)])
            ),
        ]
        for layers in samples {
            let look = Resolver().resolve(layers)
            let bytes = look.jsonBytes()
            #expect(JSONWriter.bytes(look.jsonValue) == bytes)
            #expect(Data(bytes) == look.jsonData())
            #expect(try JSONSerialization.jsonObject(with: look.jsonData()) is [String: Any])
        }
    }
}


@Suite("Language tags in localized texts", .timeLimit(.minutes(10)))
struct LanguageTagTests {
    @Test("language[-Script][-REGION] and nothing else")
    func grammar() {
        for tag in ["en", "pt-BR", "zh-Hant", "zh-Hant-HK", "es-419", "fil", "de-DE"] { #expect(FieldReader.isLanguageTag(tag), "\(tag)") }
        for tag in ["", "e", "english", "en-", "-en", "en--US", "en-US-x", "zh-Hant-HK-x", "en-Hant-Latn", "en-1234", "en-U", "e1-US", "en_US", "zh-HK-Hant", "en-41"] {
            #expect(!FieldReader.isLanguageTag(tag), "\(tag)")
        }
    }
}
