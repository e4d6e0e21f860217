import Locking
import Foundation
@testable import LookdServer
import Synchronization
import Testing

let feedToken = "test-feed-token-5b81e0c3d7"

/// Publishes the next version of `key` over the in-process routes (If-None-Match: * for the first, else If-Match).
@discardableResult
func publishNext(_ app: InProcessApp, _ key: String, corners: String = "soft") throws -> Int {
    let current = try app.store.current(appKey: key)?.version
    let headers = current.map { [("If-Match", "\"v\($0)\"")] } ?? [("If-None-Match", "*")]
    let result = try app.request("PUT", "/v1/apps/\(key)/look", headers: headers, body: Array("{\"corners\":\"\(corners)\"}".utf8), admin: true)
    guard [200, 201].contains(result.status) else { throw HarnessError("publish answered \(result.status): \(result.text)") }
    return (current ?? 0) + 1
}

/// The events of a feed page's JSON.
func feedEvents(_ result: HTTPResult) -> [[String: Any]] { result.json["events"] as? [[String: Any]] ?? [] }

/// The change feed over the in-process routes and a SQLite store: events written with every publish and rollback,
/// pages, the feed token, retention (410), long-polls and server-sent events.
@Suite("Change feed: events, pages, token, retention, long-poll, SSE", .timeLimit(.minutes(10)))
struct ChangeFeedTests {
    private let bearer = [("Authorization", "Bearer \(feedToken)")]

    @Test func publishAndRollbackWriteOneEventEachAndRefusedPublishesNone() throws {
        let app = try InProcessApp(feedToken: feedToken)
        let key = newKey()
        try publishNext(app, key, corners: "soft")
        try publishNext(app, key, corners: "round")
        // Refused publishes write nothing: a stale If-Match (412) and an invalid layer (422).
        #expect(try app.request("PUT", "/v1/apps/\(key)/look", headers: [("If-Match", "\"v1\"")], body: Array("{}".utf8), admin: true).status == 412)
        #expect(try app.request("PUT", "/v1/apps/\(key)/look", headers: [("If-Match", "\"v2\"")],
                                body: Array("{\"accent\":\"#GGGGGG\",\"corners\":7}".utf8), admin: true).status == 422)
        #expect(try app.request("POST", "/v1/apps/\(key)/look/rollback?to=1", admin: true).status == 201)

        let page = try app.get("/v1/changes", headers: bearer)
        #expect(page.status == 200)
        #expect(page.header("Cache-Control") == "no-store")
        let events = feedEvents(page)
        #expect(events.map { $0["seq"] as? Int } == [1, 2, 3])
        #expect(events.map { $0["version"] as? Int } == [1, 2, 3])
        #expect(events.map { $0["kind"] as? String } == ["publish", "publish", "rollback"])
        #expect(events.map { $0["etag"] as? String } == ["\"v1\"", "\"v2\"", "\"v3\""])
        #expect(events.allSatisfy { $0["appKey"] as? String == key })
        // RFC 3339 in UTC, as the history's publishedAt.
        let history = try app.get("/v1/apps/\(key)/look/history", admin: true).json["versions"] as? [[String: Any]] ?? []
        #expect(events.map { $0["at"] as? String } == history.reversed().map { $0["publishedAt"] as? String })
        let rfc3339 = try Regex(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$"#)
        #expect(events.allSatisfy { (($0["at"] as? String) ?? "").wholeMatch(of: rfc3339) != nil })
        #expect(page.json["next"] as? Int == 3)
    }

    /// A draft's publish appends a version like any publish, so it writes its event too (in the same transaction), and
    /// saving or deleting a draft writes none.
    @Test func aDraftsPublishWritesAPublishEvent() throws {
        let app = try InProcessApp(feedToken: feedToken)
        let key = newKey()
        let draft = "/v1/apps/\(key)/look/draft"
        #expect(try app.request("PUT", draft, headers: [("If-None-Match", "*")], body: json(["corners": "square"]), admin: true).status == 201)
        #expect(feedEvents(try app.get("/v1/changes", headers: bearer)).isEmpty)
        #expect(try app.request("POST", draft + "/publish", headers: [("If-None-Match", "*")], admin: true).status < 300)
        let events = feedEvents(try app.get("/v1/changes", headers: bearer))
        #expect(events.map { $0["kind"] as? String } == ["publish"])
        #expect(events.map { $0["version"] as? Int } == [1])
        #expect(events.map { $0["appKey"] as? String } == [key])
    }

    @Test func pagesFollowNextToTheEndAndStayThere() throws {
        let app = try InProcessApp(feedToken: feedToken)
        let keys = [newKey(), newKey()]
        for index in 0..<5 { try publishNext(app, keys[index % 2]) }
        var cursor = 0
        var seen: [Int] = []
        var pages = 0
        while true {
            let page = try app.get("/v1/changes?after=\(cursor)&limit=2", headers: bearer)
            #expect(page.status == 200)
            let seqs = feedEvents(page).compactMap { $0["seq"] as? Int }
            #expect(seqs.count <= 2)
            seen += seqs
            let next = page.json["next"] as? Int ?? -1
            #expect(next == (seqs.last ?? cursor))
            if seqs.isEmpty { break }
            cursor = next
            pages += 1
        }
        #expect(seen == [1, 2, 3, 4, 5])
        #expect(pages == 3)
    }

    @Test func theFeedNeedsItsOwnToken() throws {
        let off = try InProcessApp()
        let disabled = try off.get("/v1/changes", headers: bearer)
        #expect(disabled.status == 403)
        #expect(disabled.errorCode == "forbidden")

        let app = try InProcessApp(feedToken: feedToken)
        #expect(try app.get("/v1/changes").status == 401)
        #expect(try app.get("/v1/changes", headers: [("Authorization", "Bearer \(feedToken)x")]).status == 401)
        #expect(try app.get("/v1/changes", headers: [("Authorization", "Basic \(feedToken)")]).status == 401)
        // The admin token is not the feed token.
        let admin = try app.get("/v1/changes", admin: true)
        #expect(admin.status == 401)
        #expect(admin.errorCode == "unauthorized")
        #expect(admin.header("WWW-Authenticate") == "Bearer realm=\"lookd-feed\"")
        #expect(try app.get("/v1/changes", headers: bearer).status == 200)
    }

    @Test func aCursorOlderThanTheRetentionOrAheadOfTheFeedMustResync() throws {
        let app = try InProcessApp(feedToken: feedToken)
        let key = newKey()
        for _ in 0..<3 { try publishNext(app, key) }
        // Everything published before tomorrow is past the retention; the latest event is always kept.
        let deleted = try app.store.compactChanges(before: unixMilliseconds() + 86_400_000)
        #expect(deleted == 2)
        for cursor in [0, 1] {
            let gone = try app.get("/v1/changes?after=\(cursor)", headers: bearer)
            #expect(gone.status == 410, "after=\(cursor)")
            #expect(gone.errorCode == "resync_required")
        }
        #expect(feedEvents(try app.get("/v1/changes?after=2", headers: bearer)).compactMap { $0["seq"] as? Int } == [3])
        // Without a cursor: from the oldest retained event.
        #expect(feedEvents(try app.get("/v1/changes", headers: bearer)).compactMap { $0["seq"] as? Int } == [3])
        #expect(try app.get("/v1/changes?after=3", headers: bearer).json["next"] as? Int == 3)
        let ahead = try app.get("/v1/changes?after=4", headers: bearer)
        #expect(ahead.status == 410)
        #expect(ahead.errorCode == "resync_required")
    }

    @Test(arguments: ["after=-1", "after=abc", "after=1.5", "after=99999999999999999999", "limit=0", "limit=1001", "wait=61", "wait=-1"])
    func malformedParametersAreRefused(query: String) throws {
        let app = try InProcessApp(feedToken: feedToken)
        let result = try app.get("/v1/changes?\(query)", headers: bearer)
        #expect(result.status == 400)
        #expect(result.errorCode == "parameter_invalid")
    }

    @Test func aLongPollIsAnsweredByTheNextPublish() throws {
        let app = try InProcessApp(feedToken: feedToken)
        let key = newKey()
        try publishNext(app, key)
        let answered = LockedValue<Result<FeedPage, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        // Registered before it returns: the publish below cannot slip past it.
        try app.services.changes.wait(after: 1, limit: 100, seconds: 60) { result in
            answered.withLock { $0 = result }
            done.signal()
        }
        #expect(answered.withLock { $0 } == nil)
        try publishNext(app, key)
        #expect(done.wait(timeout: .now() + 30) == .success)
        let page = try #require(try answered.withLock { $0 }?.get())
        #expect(page.events.map(\.seq) == [2])
        #expect(page.events.map(\.version) == [2])
        #expect(page.next == 2)
    }

    @Test func aLongPollWithNothingNewAnswersAnEmptyPageAtItsDeadline() throws {
        let app = try InProcessApp(feedToken: feedToken)
        try publishNext(app, newKey())
        let result = try app.get("/v1/changes?after=1&wait=1", headers: bearer)
        #expect(result.status == 200)
        #expect(feedEvents(result).isEmpty)
        #expect(result.json["next"] as? Int == 1)
    }

    @Test func serverSentEventsCarryIDsAndResumeFromLastEventID() throws {
        let app = try InProcessApp(feedToken: feedToken)
        let key = newKey()
        for _ in 0..<3 { try publishNext(app, key) }
        let stream = [("Accept", "text/event-stream")] + bearer
        let first = try app.get("/v1/changes?after=0&wait=0", headers: stream)
        #expect(first.status == 200)
        #expect(first.header("Content-Type") == "text/event-stream")
        let events = SSE.parse(first.text)
        #expect(events.map(\.id) == ["1", "2", "3"])
        #expect(events.allSatisfy { $0.event == "change" })
        let json = try #require(try app.get("/v1/changes?after=0", headers: bearer).body as [UInt8]?)
        // Each event's data is the JSON page's event object, byte for byte.
        let pageEvents = (try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])?["events"] as? [[String: Any]] ?? []
        for (event, object) in zip(events, pageEvents) {
            let data = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any]
            #expect(data?["seq"] as? Int == object["seq"] as? Int)
            #expect(data?["etag"] as? String == object["etag"] as? String)
        }
        // A reconnecting EventSource sends Last-Event-ID; it wins over the URL's first cursor.
        let resumed = try app.get("/v1/changes?after=0&wait=0", headers: stream + [("Last-Event-ID", "2")])
        #expect(SSE.parse(resumed.text).map(\.id) == ["3"])
        // Nothing new: the answer still moves the EventSource's last id to the feed's position.
        let idle = try app.get("/v1/changes?wait=0", headers: stream + [("Last-Event-ID", "3")])
        #expect(idle.text.contains("id: 3\n\n"))
        #expect(SSE.parse(idle.text).isEmpty)
        #expect(try app.get("/v1/changes", headers: stream + [("Last-Event-ID", "x1")]).status == 400)
    }

    /// Publishers on four threads while a consumer follows the feed with small pages and long-polls, starting each
    /// request afresh from its cursor (a disconnect between every page): it sees every event exactly once, in order.
    @Test func aConsumerResumingFromItsCursorSeesEveryEventOnceInOrder() throws {
        let app = try InProcessApp(feedToken: feedToken)
        let keys = (0..<5).map { _ in newKey() }
        let perThread = 15
        let publishers = DispatchGroup()
        let acknowledged = LockedValue(0)
        for thread in 0..<4 {
            DispatchQueue.global().async(group: publishers) {
                for index in 0..<perThread {
                    let key = keys[(thread + index) % keys.count]
                    // Concurrent publishers of one app race on If-Match: retry the loser, as a dashboard would.
                    var done = false
                    for _ in 0..<50 where !done { done = (try? publishNext(app, key)) != nil }
                    if done { acknowledged.withLock { $0 += 1 } }
                }
            }
        }
        var seen: [[String: Any]] = []
        var cursor = 0
        var stream = false
        while true {
            let headers = (stream ? [("Accept", "text/event-stream")] : []) + bearer
            let result = try app.get("/v1/changes?after=\(cursor)&limit=7&wait=10", headers: headers)
            #expect(result.status == 200)
            let objects: [[String: Any]] = stream
                ? SSE.parse(result.text).compactMap { try? JSONSerialization.jsonObject(with: Data($0.data.utf8)) as? [String: Any] }
                : feedEvents(result)
            seen += objects
            cursor = objects.last?["seq"] as? Int ?? cursor
            stream.toggle()
            // Nothing new and every publisher done: whatever is missing now is missing for good.
            if objects.isEmpty && publishers.wait(timeout: .now()) == .success { break }
        }
        #expect(publishers.wait(timeout: .now() + 60) == .success)
        let total = acknowledged.withLock { $0 }
        #expect(total == 4 * perThread)
        #expect(seen.compactMap { $0["seq"] as? Int } == Array(1...total))
        // Per app, versions 1, 2, 3… in order, as the store has them.
        for key in keys {
            let versions = seen.filter { $0["appKey"] as? String == key }.compactMap { $0["version"] as? Int }
            #expect(versions == Array((0..<versions.count).map { $0 + 1 }))
            #expect(versions.count == (try app.store.current(appKey: key)?.version ?? 0))
        }
    }
}

/// A server-sent events reader as the HTML standard's EventSource parses a stream (fields id, event, data; blank line
/// dispatches; an event without data is not dispatched).
enum SSE {
    struct Event: Equatable {
        var id: String
        var event: String
        var data: String
    }

    static func parse(_ text: String) -> [Event] {
        var events: [Event] = []
        var id = "", event = "", data: [String] = []
        for line in text.components(separatedBy: "\n") {
            if line.isEmpty {
                if !data.isEmpty { events.append(Event(id: id, event: event.isEmpty ? "message" : event, data: data.joined(separator: "\n"))) }
                event = ""
                data = []
                continue
            }
            if line.hasPrefix(":") { continue }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            var value = parts.count > 1 ? String(parts[1]) : ""
            if value.hasPrefix(" ") { value.removeFirst() }
            switch parts[0] {
            case "id": id = value
            case "event": event = value
            case "data": data.append(value)
            default: break
            }
        }
        return events
    }
}
