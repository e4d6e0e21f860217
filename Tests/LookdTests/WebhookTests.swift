import Foundation
@testable import LookdServer
import Synchronization
import Testing
import TestPrograms

let webhookSecret = "whsec-test-0123456789abcdef"

/// A webhook configuration for tests: one receiver, quick retries, a 1 s attempt deadline.
func testWebhooks(_ urls: [String], leaseMilliseconds: Int64 = 5000) -> WebhookConfiguration {
    var configuration = WebhookConfiguration(receivers: urls.map { WebhookReceiver(url: $0) }, secret: Array(webhookSecret.utf8))
    configuration.timeoutSeconds = 1
    configuration.firstRetrySeconds = 0.05
    configuration.longestRetrySeconds = 0.2
    configuration.pollSeconds = 0.05
    configuration.leaseMilliseconds = leaseMilliseconds
    return configuration
}

/// Signed webhooks from an in-process app over SQLite to a receiver on loopback: signatures, order per app, and
/// receivers that fail, hang, close or refuse.
@Suite("Webhooks: signed, ordered per app, retried, given up on 4xx", .timeLimit(.minutes(10)))
struct WebhookTests {
    /// RFC-style fixed vector: the tag computed by Python's hmac module (an independent implementation) for this
    /// secret, timestamp and body.
    @Test func theSignatureMatchesAnIndependentHMAC() throws {
        let body = Array(#"{"appKey":"pk_live_540dxxtmh32jjac1btdv5rs11r3kjn166","at":"2026-01-01T00:00:00.000Z","etag":"\"v1\"","kind":"publish","seq":1,"version":1}"#.utf8)
        let header = WebhookSignature.header(secret: Array(webhookSecret.utf8), timestamp: 1_767_225_600, body: body)
        #expect(header == "t=1767225600,v1=81a77dbe75dfa74ea61702d7aafff35aa39aa16982515551403bc3f7d2dfb0f2")
        let secret = Array(webhookSecret.utf8)
        #expect(throws: Never.self) { try WebhookSignature.verify(header: header, body: body, secret: secret, now: 1_767_225_700) }
        // Replayed after the tolerance (300 s), forged with another secret, a changed body, or malformed: refused.
        #expect(throws: WebhookSignature.Refusal.stale) { try WebhookSignature.verify(header: header, body: body, secret: secret, now: 1_767_225_901) }
        #expect(throws: WebhookSignature.Refusal.mismatch) {
            try WebhookSignature.verify(header: header, body: body, secret: Array("another-secret-0123456789".utf8), now: 1_767_225_600)
        }
        var changed = body
        changed[changed.count - 2] = UInt8(ascii: "2")
        #expect(throws: WebhookSignature.Refusal.mismatch) { try WebhookSignature.verify(header: header, body: changed, secret: secret, now: 1_767_225_600) }
        // A replay with a fresh t but the old v1 does not verify: t is inside the signed bytes.
        let forged = header.replacingOccurrences(of: "t=1767225600", with: "t=1767229200")
        #expect(throws: WebhookSignature.Refusal.mismatch) { try WebhookSignature.verify(header: forged, body: body, secret: secret, now: 1_767_229_200) }
        #expect(throws: WebhookSignature.Refusal.malformed) { try WebhookSignature.verify(header: "v1=00", body: body, secret: secret, now: 0) }
    }

    /// The Python verifier docs/webhooks.md shows, run as the docs give it, on signatures lookd made.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func theDocumentedPythonVerifierAcceptsLookdsSignaturesAndRefusesForgeriesAndReplays() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/webhooks.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "```python\n"))
        let end = try #require(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
        let verifier = String(doc[start.upperBound..<end.lowerBound])
        let secret = Array(webhookSecret.utf8)
        let body = Array(#"{"appKey":"pk_test_x","seq":7}"#.utf8)
        let now: Int64 = 1_800_000_000
        let good = WebhookSignature.header(secret: secret, timestamp: now, body: body)
        let cases: [(header: String, now: Int64, expected: Bool)] = [
            (good, now, true),
            (good, now + 299, true),
            (good, now + 301, false),   // replayed too late
            (WebhookSignature.header(secret: Array("not-the-secret-0123456789".utf8), timestamp: now, body: body), now, false),
            (good.replacingOccurrences(of: "t=\(now)", with: "t=\(now + 60)"), now + 60, false),
            ("garbage", now, false),
        ]
        var script = verifier + "\nimport sys\nbody = " + pythonBytes(body) + "\nsecret = " + pythonBytes(secret) + "\n"
        for item in cases {
            script += "print(verify(secret, body, \(pythonString(item.header)), now=\(item.now)))\n"
        }
        let (status, text, errors) = try runProgram("/usr/bin/python3", ["-c", script], timeout: 120)
        #expect(status == 0, "\(errors)")
        #expect(text.split(separator: "\n").map(String.init) == cases.map { $0.expected ? "True" : "False" })
    }

    private func pythonBytes(_ bytes: [UInt8]) -> String { "bytes([" + bytes.map(String.init).joined(separator: ",") + "])" }
    private func pythonString(_ text: String) -> String { "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'" }

    @Test func everyEventIsPostedSignedAndInOrderPerApp() throws {
        let receiver = try TestReceiver()
        let app = try InProcessApp(webhooks: testWebhooks([receiver.url]))
        let a = newKey(), b = newKey()
        for key in [a, b, a, a, b] { try publishNext(app, key) }
        #expect(receiver.wait { $0.count >= 5 })
        let received = receiver.received
        #expect(received.map(\.seq).sorted() == [1, 2, 3, 4, 5])
        #expect(received.filter { $0.appKey == a }.map(\.seq) == [1, 3, 4])
        #expect(received.filter { $0.appKey == b }.map(\.seq) == [2, 5])
        let id = receiverID(receiver.url)
        let page = try app.store.changes(after: 0, limit: 10)
        for request in received {
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["lookd-delivery"] == "\(id)-\(request.seq)")
            let signature = try #require(request.headers["lookd-signature"])
            #expect(throws: Never.self) {
                try WebhookSignature.verify(header: signature, body: request.body, secret: Array(webhookSecret.utf8), now: unixMilliseconds() / 1000)
            }
            // The body is the feed's event, byte for byte.
            #expect(String(decoding: request.body, as: UTF8.self) == page.events.first { $0.seq == Int64(request.seq) }?.json)
        }
        // The receiver answered before lookd recorded it: wait for the records.
        let records = try deliveryRecords(app.store, id) { $0.count == 5 && $0.allSatisfy { $0.state != .pending } }
        #expect(records.map(\.state) == Array(repeating: .delivered, count: 5))
    }

    /// One event against a receiver that answers 500, then closes the connection, then never answers (past the 1 s
    /// deadline), then 429, then answers slowly (within the deadline): delivered at the fifth attempt, every attempt
    /// with the same Lookd-Delivery.
    @Test func aFailingReceiverIsRetriedWithTheSameDeliveryIDUntilItAcknowledges() throws {
        let receiver = try TestReceiver { number in
            switch number {
            case 0: .status(500)
            case 1: .close
            case 2: .hold(200)
            case 3: .status(429)
            default: .status(204)
            }
        }
        let app = try InProcessApp(webhooks: testWebhooks([receiver.url]))
        let key = newKey()
        try publishNext(app, key)
        let id = receiverID(receiver.url)
        #expect(receiver.wait { $0.count >= 5 })
        receiver.release()
        let records = try deliveryRecords(app.store, id) { $0.first?.state == .delivered }
        #expect(records.map(\.state) == [.delivered])
        #expect(records.first?.attempts == 5)
        let ids = Set(receiver.received.map { $0.headers["lookd-delivery"] ?? "" })
        #expect(ids == ["\(id)-1"])
    }

    /// A 4xx other than 408/429 stops that delivery and records why; the app's next event is delivered after it.
    @Test func aClientErrorStopsTheDeliveryAndRecordsWhy() throws {
        let receiver = try TestReceiver { number in number == 0 ? .status(410) : .status(200) }
        let app = try InProcessApp(webhooks: testWebhooks([receiver.url]))
        let key = newKey()
        try publishNext(app, key)
        #expect(receiver.wait { $0.count >= 1 })
        try publishNext(app, key)
        #expect(receiver.wait { $0.count >= 2 })
        let id = receiverID(receiver.url)
        let records = try deliveryRecords(app.store, id) { $0.count == 2 && $0.allSatisfy { $0.state != .pending } }
        #expect(records.map(\.state) == [.failed, .delivered])
        #expect(records.first?.lastError == "the receiver answered HTTP 410")
        #expect(records.first?.attempts == 1)
        #expect(receiver.received.map(\.seq) == [1, 2])
    }

    /// A delivery leased by a replica that died (it never records an outcome) is taken over once its lease runs out;
    /// the dead holder's late answer is ignored.
    @Test func aDeadHoldersLeaseIsTakenOver() throws {
        let receiver = try TestReceiver()
        let directory = try TemporaryDirectory()
        let store = try SQLiteLookStore(directory: directory.path + "/data")
        defer { store.close() }
        let configuration = testWebhooks([receiver.url], leaseMilliseconds: 300)
        let id = configuration.receivers[0].id
        try store.registerReceivers([(id, receiver.url)])
        _ = try store.publish(appKey: newKey(), layer: "{}", expected: .newApp, rolledBackFrom: nil)
        let now = unixMilliseconds()
        let dead = try store.claimDeliveries(receiver: id, owner: "dead", nowMilliseconds: now, leaseMilliseconds: 300, limit: 4)
        #expect(dead.map(\.seq) == [1])
        // While the lease holds nobody else gets it.
        #expect(try store.claimDeliveries(receiver: id, owner: "other", nowMilliseconds: now + 100, leaseMilliseconds: 300, limit: 4).isEmpty)
        let deliverer = WebhookDeliverer(store: store, configuration: configuration)
        try deliverer.start()
        defer { deliverer.stop() }
        #expect(receiver.wait { $0.count >= 1 })
        let records = try deliveryRecords(store, id) { $0.first?.state == .delivered }
        #expect(records.map(\.state) == [.delivered])
        #expect(try store.finishDelivery(dead[0], owner: "dead", outcome: .failed(reason: "late"), nowMilliseconds: unixMilliseconds()) == false)
        #expect(try store.deliveries(receiver: id).map(\.state) == [.delivered])
    }

    @Test func webhookSettingsAreChecked() throws {
        let directory = try TemporaryDirectory()
        let secret = directory.path + "/secret"
        try Data("short\n".utf8).write(to: URL(fileURLWithPath: secret))
        #expect(throws: ConfigurationError.self) { try WebhookConfiguration.load(urls: ["ftp://x/"], secretFile: nil) }
        #expect(throws: ConfigurationError.self) { try WebhookConfiguration.load(urls: ["http://127.0.0.1:9/"], secretFile: nil) }
        #expect(throws: ConfigurationError.self) { try WebhookConfiguration.load(urls: ["http://127.0.0.1:9/"], secretFile: secret) }
        #expect(throws: ConfigurationError.self) { try WebhookConfiguration.load(urls: [], secretFile: secret) }
        try Data((webhookSecret + "\n").utf8).write(to: URL(fileURLWithPath: secret))
        let loaded = try #require(try WebhookConfiguration.load(urls: ["http://127.0.0.1:9/a", "https://example.invalid/b"], secretFile: secret))
        #expect(loaded.secret == Array(webhookSecret.utf8))
        #expect(throws: ConfigurationError.self) { try WebhookConfiguration.load(urls: ["http://127.0.0.1:9/a", "http://127.0.0.1:9/a"], secretFile: secret) }
    }
}

/// A receiver's id as lookd derives it: the first 16 hex digits of SHA-256 of the URL (computed here with the
/// shim's SHA-256, itself checked against FIPS vectors in CryptoTests).
func receiverID(_ url: String) -> String { String(Crypto.hex(Crypto.sha256(Array(url.utf8))).prefix(16)) }

/// The receiver's delivery records once `done` holds for them (the store is read every 20 ms, for at most 30 s).
func deliveryRecords(_ store: any LookStore, _ receiver: String, until done: ([DeliveryRecord]) -> Bool) throws -> [DeliveryRecord] {
    var records: [DeliveryRecord] = []
    _ = try eventually(within: 30) {
        records = try store.deliveries(receiver: receiver)
        return done(records)
    }
    return records
}
