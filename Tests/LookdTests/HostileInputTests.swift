import Foundation
@testable import LookdServer
import Testing

/// Issue 12's application-level rows, each a regression test that failed before its fix. In process.
@Suite("Hostile input: preconditions, control characters, bounded lint and resolve, metrics labels", .timeLimit(.minutes(10)))
struct HostileInputTests {
    /// Publishes version 1 of a new app and returns its look path.
    static func published(_ app: InProcessApp) throws -> String {
        let path = "/v1/apps/\(newKey())/look"
        let first = try app.request("PUT", path, headers: [("If-None-Match", "*")], body: json(["corners": "square"]), admin: true)
        #expect(first.status == 201)
        return path
    }

    @Test("If-Match with a well-formed tag that is not the current version's is 412, never 400; \"v01\" is not v1")
    func ifMatchWithOtherTagsDoesNotMatch() throws {
        let app = try InProcessApp()
        let path = try Self.published(app)
        let layer = json(["corners": "round"])
        for tag in ["\"v01\"", "\"abc\"", "\"\"", "\"v1-zz\"", "W/\"v1\"", "\"v1\", \"v01\""] where tag != "\"v1\", \"v01\"" {
            let answer = try app.request("PUT", path, headers: [("If-Match", tag)], body: layer, admin: true)
            #expect(answer.status == 412, "If-Match: \(tag)")
            #expect(answer.errorCode == "version_conflict", "If-Match: \(tag)")
            #expect(answer.header("ETag") == "\"v1\"", "If-Match: \(tag)")
        }
        // A list matches when any member names the current version.
        #expect(try app.request("PUT", path, headers: [("If-Match", "\"zz\", \"v1\"")], body: layer, admin: true).status == 200)
        // Not an entity tag at all: malformed, 400.
        let malformed = try app.request("PUT", path, headers: [("If-Match", "v2")], body: layer, admin: true)
        #expect(malformed.status == 400)
        #expect(malformed.errorCode == "precondition_invalid")
        #expect(try app.get(path).json["version"] as? Int == 2)
        // An empty If-Match is an empty list, the same as none: a rollback proceeds, a publish needs a precondition.
        #expect(try app.request("POST", path + "/rollback?to=1", headers: [("If-Match", "")], admin: true).status == 201)
        #expect(try app.request("PUT", path, headers: [("If-Match", " ")], body: layer, admin: true).status == 428)
        // If-Match: * on a rollback is refused as described (428), not a 400.
        #expect(try app.request("POST", path + "/rollback?to=1", headers: [("If-Match", "*")], admin: true).status == 428)
    }

    @Test("/v1/strings honours If-None-Match with a weak tag and * (304), like the look route")
    func stringsRevalidationUsesWeakComparison() throws {
        let app = try InProcessApp()
        let first = try app.get("/v1/strings?lang=de")
        let etag = try #require(first.header("ETag"))
        #expect(try app.get("/v1/strings?lang=de", headers: [("If-None-Match", "W/" + etag)]).status == 304)
        #expect(try app.get("/v1/strings?lang=de", headers: [("If-None-Match", "*")]).status == 304)
        #expect(try app.get("/v1/strings?lang=de", headers: [("If-None-Match", "\"x\", " + etag)]).status == 304)
        #expect(try app.get("/v1/strings?lang=de", headers: [("If-None-Match", "\"x\"")]).status == 200)
        let path = try Self.published(app)
        let look = try #require(try app.get(path).header("ETag"))
        #expect(try app.get(path, headers: [("If-None-Match", "W/" + look)]).status == 304)
        #expect(try app.get(path, headers: [("If-None-Match", "*")]).status == 304)
    }

    @Test("a control character in lang is refused, never read as the part before it")
    func controlCharactersInLangAreRefused() throws {
        let app = try InProcessApp()
        let key = newKey()
        for target in ["/v1/strings?lang=de%00fr", "/v1/locales/match?lang=de%00fr", "/v1/apps/\(key)/look?lang=de%00fr",
                       "/v1/strings?lang=de%0Afr", "/v1/strings?lang=de%20", "/v1/preview?lang=de%09"] {
            let answer = try app.get(target)
            #expect(answer.status == 400, "\(target)")
            #expect(answer.errorCode == "lang_invalid", "\(target)")
        }
        let format = try app.request("POST", "/v1/strings/format", body: json(["locale": "de\u{0}fr", "key": "delivery.read"]))
        #expect(format.errorCode == "lang_invalid")
        #expect(try app.get("/v1/strings?lang=de-CH").status == 200)
    }

    @Test("resolve: a layer with 70,000 unknown keys is refused; diagnostics are bounded with a notice")
    func resolveIsBounded() throws {
        let app = try InProcessApp()
        let unknown = (0..<70_000).map { "\"k\($0)\":1" }.joined(separator: ",")
        let huge = try app.request("POST", "/v1/looks/resolve", body: Array("{\"dashboard\":{\(unknown)}}".utf8))
        #expect(huge.status == 400)
        #expect(huge.errorCode == "limit_exceeded")

        var many: [String: Any] = [:]
        for index in 0..<ServiceBounds.layerKeys { many["unknown\(index)"] = 1 }
        let answer = try app.request("POST", "/v1/looks/resolve", body: json(["dashboard": many, "code": many, "inferred": many]))
        #expect(answer.status == 200)
        let diagnostics = try #require(answer.json["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == ServiceBounds.diagnostics)
        let notice = try #require(diagnostics.last)
        #expect(notice["code"] as? String == "diagnostics_truncated")
        let left = 3 * ServiceBounds.layerKeys - (ServiceBounds.diagnostics - 1)
        #expect(notice["message"] as? String == "and \(left) more diagnostics")
    }

    @Test("lint: a catalog over the key bound is refused; findings are bounded with a notice, the summary counts all")
    func lintIsBounded() throws {
        let app = try InProcessApp()
        func catalog(_ count: Int) -> String {
            "{" + (0..<count).map { "\"k\($0)\": {\"message\": \"Text \($0)\"}" }.joined(separator: ",") + "}"
        }
        let tooMany = try app.request("POST", "/v1/lint", body: json(["catalogs": [["name": "en.json", "text": catalog(ServiceBounds.lintKeysPerCatalog + 1)]]]))
        #expect(tooMany.status == 400)
        #expect(tooMany.errorCode == "limit_exceeded")

        // Every source key missing from de.json: one finding per key, more than the report prints.
        let count = ServiceBounds.lintFindings + 500
        let body = json(["catalogs": [["name": "en.json", "text": catalog(count)], ["name": "de.json", "text": "{}"]]])
        let report = try app.request("POST", "/v1/lint", body: body)
        #expect(report.status == 200)
        let findings = try #require(report.json["findings"] as? [[String: Any]])
        #expect(findings.count == ServiceBounds.lintFindings)
        let summary = try #require(report.json["summary"] as? [String: Any])
        let total = (summary["errors"] as? Int ?? 0) + (summary["warnings"] as? Int ?? 0)
        #expect(total >= count)
        #expect(summary["omitted"] as? Int == total - ServiceBounds.lintFindings)
        let text = try app.request("POST", "/v1/lint?format=text", body: body)
        #expect(text.text.contains("and \(total - ServiceBounds.lintFindings) more findings"))
        #expect(total - ServiceBounds.lintFindings < 1_000)
        #expect(text.header("X-Lint-Result") == "fail")
    }

    @Test("/metrics: the method label is one of a fixed set, every label is escaped, the page parses")
    func metricsLabelsAreBoundedAndEscaped() throws {
        let metrics = Metrics()
        metrics.recordRequest(method: "A\"B", route: "unmatched", status: 400, durationSeconds: 0.001)
        metrics.recordRequest(method: "GET", route: "/a\\b\"c\nd", status: 200, durationSeconds: 0.001)
        for index in 0..<1_000 { metrics.recordRequest(method: "M\(index)", route: "unmatched", status: 405, durationSeconds: 0.001) }
        let samples = try PrometheusText.parse(metrics.render())
        let methods = Set(samples.compactMap { $0.labels["method"] })
        #expect(methods.isSubset(of: Metrics.methodLabels.union(["other"])))
        #expect(methods.contains("other"))
        #expect(samples.filter { $0.name == "lookd_http_requests_total" }.count == 3)
        #expect(samples.contains { $0.labels["route"] == "/a\\b\"c\nd" })
        #expect(samples.filter { $0.labels["method"] == "other" }.map(\.value).reduce(0, +) == 1_001)
    }

    @Test("a published layer is read as RFC 8259 exactly: trailing comma, BOM, UTF-16, duplicate key refused; numbers kept")
    func publishedLayersAreReadStrictly() throws {
        let app = try InProcessApp()
        let path = "/v1/apps/\(newKey())/look"
        let refused: [(String, [UInt8])] = [
            ("trailing comma", Array("{\"corners\": \"square\",}".utf8)),
            ("byte order mark", [0xEF, 0xBB, 0xBF] + Array("{\"corners\": \"square\"}".utf8)),
            ("UTF-16", Array("{\"corners\": \"square\"}".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            ("duplicate key", Array("{\"corners\": \"square\", \"corners\": \"round\"}".utf8)),
        ]
        for (name, body) in refused {
            let answer = try app.request("PUT", path, headers: [("If-None-Match", "*")], body: body, admin: true)
            #expect(answer.status == 400, "\(name)")
            #expect(answer.errorCode == "json_invalid", "\(name)")
            let message = (answer.json["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("line"), "\(name): \(message)")
        }
        #expect(try app.get(path).errorCode == "app_unknown")
        // An unknown field with an integer beyond 2^53 is a warning, and the number is stored exactly as sent.
        let exact = Array("{\"corners\":\"square\",\"futureField\":9007199254740993}".utf8)
        #expect(try app.request("PUT", path, headers: [("If-None-Match", "*")], body: exact, admin: true).status == 201)
        #expect(try app.get(path).text.contains("\"futureField\":9007199254740993"))
        #expect(try app.get(path + "/history", admin: true).text.contains("9007199254740993"))
    }

    @Test("OpenAPI: app key, lang, limit and preconditions are described as the routes check them")
    func openAPIIsPrecise() throws {
        let app = try InProcessApp()
        let document = try app.get("/openapi.json").json
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        let fetch = try #require(paths["/v1/apps/{appKey}/look"]?["get"]?["parameters"] as? [[String: Any]])
        func schema(_ parameters: [[String: Any]], _ name: String) -> [String: Any]? {
            parameters.first { $0["name"] as? String == name }?["schema"] as? [String: Any]
        }
        #expect(schema(fetch, "appKey")?["pattern"] as? String == OpenAPISchemas.appKeyPattern)
        #expect(schema(fetch, "lang")?["pattern"] as? String == OpenAPISchemas.languageTagPattern)
        #expect(schema(fetch, "If-None-Match")?["pattern"] != nil)
        let history = try #require(paths["/v1/apps/{appKey}/look/history"]?["get"]?["parameters"] as? [[String: Any]])
        #expect(schema(history, "limit")?["minimum"] as? Int == 1)
        #expect(schema(history, "limit")?["maximum"] as? Int == 1000)
        let publish = try #require(paths["/v1/apps/{appKey}/look"]?["put"])
        #expect(schema(publish["parameters"] as? [[String: Any]] ?? [], "If-Match") != nil)
        let body = ((publish["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any]
        #expect((body?["schema"] as? [String: Any])?["maxProperties"] as? Int == ServiceBounds.layerKeys)
        // Every lang the pattern allows is accepted.
        let regex = try Regex(OpenAPISchemas.languageTagPattern)
        for tag in ["de", "gsw", "zh-Hant", "zh-Hant-TW", "es-419", "PT-br", "xx", "abc-Abcd-123"] {
            #expect(tag.wholeMatch(of: regex) != nil, "\(tag)")
            #expect(try app.get("/v1/locales/match?lang=\(tag)").status == 200, "\(tag)")
        }
    }
}

/// A parser for the Prometheus text exposition format (0.0.4), as strict as the reference client's: comments,
/// `name{label="value",…} value`, label values with only `\\`, `\"` and `\n` escapes. Throws on anything else.
enum PrometheusText {
    struct Sample { var name: String; var labels: [String: String]; var value: Double }
    struct ParseError: Error, CustomStringConvertible { var description: String }

    static func parse(_ text: String) throws -> [Sample] {
        var samples: [Sample] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty || line.hasPrefix("#") { continue }
            var characters = Array(line.unicodeScalars)[...]
            var name = ""
            while let first = characters.first, first.properties.isAlphabetic || first == "_" || first == ":" || ("0"..."9").contains(first) {
                name.unicodeScalars.append(characters.removeFirst())
            }
            guard !name.isEmpty else { throw ParseError(description: "no metric name: \(line)") }
            var labels: [String: String] = [:]
            if characters.first == "{" {
                characters.removeFirst()
                while characters.first != "}" {
                    var label = ""
                    while let first = characters.first, first != "=" { label.unicodeScalars.append(characters.removeFirst()) }
                    guard characters.popFirst() == "=", characters.popFirst() == "\"" else { throw ParseError(description: "bad label: \(line)") }
                    var value = ""
                    while true {
                        guard let next = characters.popFirst() else { throw ParseError(description: "unterminated value: \(line)") }
                        if next == "\"" { break }
                        if next == "\\" {
                            switch characters.popFirst() {
                            case "\\": value += "\\"
                            case "\"": value += "\""
                            case "n": value += "\n"
                            default: throw ParseError(description: "bad escape: \(line)")
                            }
                        } else {
                            value.unicodeScalars.append(next)
                        }
                    }
                    guard labels.updateValue(value, forKey: label) == nil else { throw ParseError(description: "repeated label: \(line)") }
                    if characters.first == "," { characters.removeFirst() } else if characters.first != "}" { throw ParseError(description: "bad separator: \(line)") }
                }
                characters.removeFirst()
            }
            guard characters.popFirst() == " ", let value = Double(String(String.UnicodeScalarView(characters))) else {
                throw ParseError(description: "bad value: \(line)")
            }
            samples.append(Sample(name: name, labels: labels, value: value))
        }
        return samples
    }
}
