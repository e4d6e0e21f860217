import Foundation
@testable import LookdServer
import Testing

/// The services called directly, without routes or HTTP types: they speak domain errors.
@Suite("Services in process: domain errors, no HTTP", .timeLimit(.minutes(10)))
struct ServiceTests {
    @Test func stringsServiceRefusesMalformedTagsAndNegotiatesValidOnes() throws {
        let strings = try InProcessApp().services.strings
        for bad in ["de\u{0}fr", "de fr", "", "../../etc/passwd", String(repeating: "a", count: 36), "en_US"] {
            #expect(throws: StringsServiceError.langInvalid, "\(bad.debugDescription)") {
                try strings.negotiate(lang: bad, acceptLanguage: nil)
            }
        }
        #expect(try strings.negotiate(lang: "es-MX", acceptLanguage: "de").locale.identifier == "es-419")
        #expect(try strings.negotiate(lang: nil, acceptLanguage: "zh-TW,en;q=0.5").locale.identifier == "zh-Hant")
        #expect(throws: StringsServiceError.requestInvalid("the body must be a JSON object")) {
            try strings.format(body: Array("[1,]".utf8))
        }
    }

    @Test func lookServicePublishesWithPreconditionsAndSaysWhyNot() throws {
        let app = try InProcessApp()
        let looks = app.services.looks
        let key = newKey()
        let layer = Array("{\"corners\":\"soft\"}".utf8)
        let (first, warnings) = try looks.publish(appKey: key, body: layer, precondition: .newApp)
        #expect(first.version == 1)
        #expect(warnings.isEmpty)
        do {
            _ = try looks.publish(appKey: key, body: layer, precondition: .anyVersion([]))
            Issue.record("a precondition naming no version must not hold")
        } catch LookServiceError.versionConflict(let current, _) {
            #expect(current == 1)
        }
        do {
            _ = try looks.publish(appKey: key, body: Array("{\"accent\":\"nope\"}".utf8), precondition: .anyVersion([1]))
            Issue.record("an invalid layer must be refused")
        } catch LookServiceError.layerInvalid(let diagnostics) {
            #expect(diagnostics.contains { $0.field == "accent" })
        }
        #expect(try looks.publish(appKey: key, body: layer, precondition: .anyVersion([7, 1])).0.version == 2)
        #expect(throws: LookServiceError.self) { try looks.rollback(appKey: newKey(), to: 1, precondition: nil) }
    }

    @Test func adminAuthSaysWhichRefusal() throws {
        #expect(throws: AdminAuthError.disabled) { try AdminAuth(token: nil).authorize(authorization: "Bearer x") }
        let auth = AdminAuth(token: adminToken)
        #expect(throws: AdminAuthError.missingToken) { try auth.authorize(authorization: nil) }
        #expect(throws: AdminAuthError.missingToken) { try auth.authorize(authorization: "Basic abc") }
        #expect(throws: AdminAuthError.wrongToken) { try auth.authorize(authorization: "Bearer " + adminToken + "x") }
        try auth.authorize(authorization: "Bearer " + adminToken)
    }

    @Test func entityTagsAreParsedAsRFC9110Lists() {
        #expect(EntityTag.list("\"a\", W/\"b\" ,\"c,d\"") == ["\"a\"", "W/\"b\"", "\"c,d\""])
        #expect(EntityTag.list("*") == ["*"])
        for malformed in ["v1", "\"a", "\"a\" \"b\"", "*, \"a\"", "\"a b\"", "W/v1"] {
            #expect(EntityTag.list(malformed) == nil, "\(malformed)")
        }
        #expect(EntityTag.version("\"v12\"") == 12)
        // A fetch's tag in each coding (docs/http-api.md), and the identity tag's former form.
        for fetch in ["\"v12-AbC-_x9Z\"", "\"v12bAbC-_x9Z\"", "\"v12gAbC-_x9Z\"", "\"v12-0123456789abcdef\""] {
            #expect(EntityTag.version(fetch) == 12, "\(fetch)")
        }
        for other in ["\"v012\"", "\"v0\"", "W/\"v1\"", "\"v1-zz\"", "\"v\"", "\"x1\"", "\"v1234567890\"", "\"v12xAbC-_x9Z\"",
                      "\"v12-AbC-_x9\"", "\"v12-AbC.-x9Z\"", "\"v12-0123456789abcdef-br\"", "\"v12b0123456789abcdef\""] {
            #expect(EntityTag.version(other) == nil, "\(other)")
        }
    }
}
