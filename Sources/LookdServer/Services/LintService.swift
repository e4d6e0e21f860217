import Foundation
import StableJSON
import StringsLint

/// `POST /v1/lint`'s work: reads the catalogs and configuration from the request body, bounds them, runs the
/// same `Linter` as `lookd lint` and renders the report. Stateless and thread-safe.
struct LintService: Sendable {
    /// Most catalogs per request (`Limits.maxLintLocales`).
    var maxCatalogs: Int

    /// A rendered report and whether the run fails.
    struct Outcome: Sendable {
        var text: String
        var fails: Bool
    }

    /// Lints `{"catalogs": [{"name", "text"}], "configuration": {…}?}`. At most `maxCatalogs` catalogs and
    /// `ServiceBounds.lintKeysPerCatalog` keys in each; at most `ServiceBounds.lintFindings` findings printed (the
    /// summary counts all, and a notice says how many were left out). Throws `LintServiceError`.
    func lint(body: [UInt8], format: LintFormat, strict: Bool) throws -> Outcome {
        guard case .object(let object)? = try? JSONReader.read(body, limits: JSONReader.Limits(maxDepth: 32, maxStringBytes: body.count)) else {
            throw LintServiceError.requestInvalid("the body must be a JSON object with \"catalogs\"")
        }
        guard case .array(let items)? = object["catalogs"], !items.isEmpty else {
            throw LintServiceError.requestInvalid("\"catalogs\" must be a non-empty array of {\"name\", \"text\"}")
        }
        guard items.count <= maxCatalogs else {
            throw LintServiceError.limitExceeded("at most \(maxCatalogs) catalogs per request")
        }
        var inputs: [CatalogInput] = []
        for item in items {
            guard case .object(let fields) = item, case .string(let name)? = fields["name"], case .string(let text)? = fields["text"] else {
                throw LintServiceError.requestInvalid("each catalog is {\"name\": \"de.json\", \"text\": \"…\"}")
            }
            guard !name.isEmpty, name.utf8.count <= 128, !name.contains("/"), !name.contains("\\"),
                  !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw LintServiceError.inputInvalid("a catalog name is a file name like de.json (no directories)")
            }
            let bytes = Array(text.utf8)
            let keys = Self.topLevelKeyCount(bytes)
            guard keys <= ServiceBounds.lintKeysPerCatalog else {
                throw LintServiceError.limitExceeded("\(name) has \(keys) keys; at most \(ServiceBounds.lintKeysPerCatalog) per catalog are linted")
            }
            inputs.append(CatalogInput(name: name, bytes: bytes))
        }
        var configuration = LintConfiguration()
        if let given = object["configuration"] {
            do {
                configuration = try LintConfiguration.parse(Data(JSONWriter.bytes(given)))
            } catch {
                throw LintServiceError.inputInvalid("configuration: \(error)")
            }
        }
        let findings: [LintFinding]
        do {
            // On the calling thread: a shared-lane worker, at that lane's lower CPU priority (not Dispatch's threads).
            findings = try Linter(configuration: configuration, spreadsOverCores: false).lint(inputs)
        } catch {
            throw LintServiceError.inputInvalid("\(error)")
        }
        let report = LintReport(findings: findings, fileCount: inputs.count, toolVersion: lookdVersion,
                                findingLimit: ServiceBounds.lintFindings)
        return Outcome(text: format.reporter.render(report), fails: report.fails(strict: strict))
    }

    /// The members of the top-level JSON object in `bytes` (commas at depth 1, outside strings, plus one), in
    /// one pass without building anything; 0 for an empty object or a text that is not an object.
    static func topLevelKeyCount(_ bytes: [UInt8]) -> Int {
        var depth = 0
        var inString = false
        var escaped = false
        var members = 0
        var sawMember = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                if depth == 1 { sawMember = true }
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ","): if depth == 1 { members += 1 }
            default: break
            }
        }
        return sawMember ? members + 1 : 0
    }
}
