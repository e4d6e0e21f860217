import Foundation
import Testing
@testable import LookResolver

/// Built-in texts name catalog keys and carry the English source text: both must match en.json.
@Test("built-in texts match the English source catalog", .timeLimit(.minutes(10)))
func builtInTextsMatchTheCatalog() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/Localizations/en.json")
    let catalog = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: [String: Any]])
    var texts = [LookDefaults.replyExpectation]
    for name in ["billing", "bug", "idea"] {
        let preset = try #require(Topic.presets[name])
        #expect(preset.id == name && preset.preset == name)
        texts.append(preset.label)
        texts.append(try #require(preset.prefill))
    }
    for text in texts {
        guard case .catalog(let key, let english) = text else {
            Issue.record("\(text) is not a catalog text")
            continue
        }
        #expect(catalog[key]?["message"] as? String == english, "\(key)")
    }
}
