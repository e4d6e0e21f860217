import Foundation
import Testing
import LookResolver

@Suite("Diagnostic codes", .timeLimit(.minutes(10)))
struct DiagnosticCodeTests {
    /// The table of docs/look.md ("Diagnostics"), written out by hand: wire name and severity.
    static let documented: [(String, Diagnostic.Severity)] = [
        ("invalid_layer", .error), ("invalid_type", .error), ("invalid_color", .error), ("invalid_value", .error),
        ("invalid_locale", .error), ("invalid_url", .error), ("empty_value", .error), ("invisible_text", .error),
        ("bidi_control", .error), ("too_long", .error), ("missing_value", .error), ("too_many_topics", .error),
        ("duplicate_topic_id", .error), ("invalid_topic_id", .error), ("unknown_value", .warning),
        ("unknown_field", .warning), ("field_not_allowed", .warning), ("diagnostics_truncated", .warning),
    ]

    @Test("every documented code is known, by its wire name and severity, and nothing else is")
    func documentedCodes() {
        #expect(Diagnostic.Code.known.map(\.rawValue) == Self.documented.map(\.0))
        for (name, severity) in Self.documented {
            let code = Diagnostic.Code(rawValue: name)
            if case .unknown = code { Issue.record("\(name) is read as an unknown code") }
            #expect(code.rawValue == name)
            #expect(code.severity == severity, "\(name)")
        }
    }

    @Test("a code this version does not know is kept by its name, as a warning")
    func unknownCode() throws {
        let code = Diagnostic.Code(rawValue: "too_bright")
        #expect(code == .unknown("too_bright"))
        #expect(code.rawValue == "too_bright")
        #expect(code.severity == .warning)
        #expect(Diagnostic.Code.unknown("invalid_color") == .invalidColor, "equal by wire name")
        #expect(Set([Diagnostic.Code.unknown("too_long"), .tooLong]).count == 1)
        let json = Data(#"{"layer":"dashboard","field":"accent","code":"too_bright","message":"m","severity":"error"}"#.utf8)
        let read = try JSONDecoder().decode(Diagnostic.self, from: json)
        #expect(read.code == .unknown("too_bright") && read.severity == .error)
        let written = try JSONDecoder().decode(Diagnostic.self, from: JSONEncoder().encode(read))
        #expect(written == read)
    }

    @Test("a known code decodes to its case")
    func knownCodeDecodes() throws {
        let json = Data(#"{"layer":"code","field":"font","code":"invalid_type","message":"m","severity":"error"}"#.utf8)
        #expect(try JSONDecoder().decode(Diagnostic.self, from: json).code == .invalidType)
    }
}
