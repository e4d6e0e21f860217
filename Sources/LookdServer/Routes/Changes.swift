import StableJSON

/// The change feed: `GET /v1/changes` as JSON pages, long-polls and server-sent events (docs/webhooks.md).
enum ChangeRoutes {
    static func register(into router: inout Router, app: AppServices) {
        router.add(Route("GET", "/v1/changes", doc: RouteDoc(
            summary: "The change feed (feed token): events after a cursor in order, {\"events\": [...], \"next\": SEQ}. wait=N long-polls up to N seconds for the first event; Accept: text/event-stream answers them as server-sent events (id = seq; Last-Event-ID resumes).",
            responses: [200: "events after the cursor (none when wait ran out)", 400: "malformed after, limit, wait or Last-Event-ID (parameter_invalid)",
                        401: "missing or wrong feed token (unauthorized)", 403: "the feed is disabled: no --feed-token-file (forbidden)",
                        410: "the cursor is older than the retention or not this feed's (resync_required): resync, then follow a new page's next",
                        503: "store unavailable (store_unavailable) or too many waiting long-polls (feed_busy)"],
            query: ["after": "the cursor: events with a greater seq (default: from the oldest retained)",
                    "limit": "most events, 1–1000 (default 100)",
                    "wait": "seconds to wait for the first event when there is none yet, 0–60 (default 0; 25 for text/event-stream)"],
            feedToken: true, runsOn: .workers)) { request in
            try app.changes.auth.authorize(authorization: request.header("authorization"))
            let stream = request.header("accept").map { $0.lowercased().contains("text/event-stream") } ?? false
            // An EventSource reconnecting sends the last id it saw: that wins over the URL's first cursor.
            let lastEventID = stream ? request.header("last-event-id").flatMap { $0.isEmpty ? nil : $0 } : nil
            let after = try cursor(lastEventID, name: "Last-Event-ID") ?? cursor(request.query("after"), name: "after")
            let limit = try integerParameter(request, "limit", default: 100, range: 1...ChangeFeedService.maxPageSize)
            let wait = try integerParameter(request, "wait", default: stream ? 25 : 0, range: 0...ChangeFeedService.maxWaitSeconds)
            let page = try app.changes.page(after: after, limit: limit)
            guard page.events.isEmpty, wait > 0 else { return response(page, stream: stream) }
            throw ParkRequest { parked in
                do {
                    try app.changes.wait(after: page.next, limit: limit, seconds: Double(wait)) { result in
                        parked.answer(answer(result, stream: stream))
                    }
                } catch {
                    parked.answer(answer(.failure(error), stream: stream))
                }
            }
        })
    }

    /// A cursor: a whole number from 0, or nil when absent. Throws 400 `parameter_invalid`.
    private static func cursor(_ text: String?, name: String) throws -> Int64? {
        guard let text else { return nil }
        guard text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int64(text) else {
            throw HTTPError.badRequest("parameter_invalid", "\(name) takes a feed position: a whole number from 0")
        }
        return value
    }

    /// The answer to a long-poll that waited: the page, or the error's own answer.
    private static func answer(_ result: Result<FeedPage, any Error>, stream: Bool) -> Response {
        do {
            let page = try result.get()
            return response(page, stream: stream)
        } catch let error as any HTTPResponseError {
            return HTTPError(error).response
        } catch {
            return HTTPError.internalError("unexpected error: \(error)").response
        }
    }

    /// `{"events": [...], "next": SEQ}`, or the events as server-sent events: `id: SEQ`, `event: change`, `data: EVENT`
    /// each, after `retry: 1000`; with no event, just `id: NEXT`, so a reconnecting EventSource resumes from there.
    static func response(_ page: FeedPage, stream: Bool) -> Response {
        let headers = [("Cache-Control", "no-store")]
        guard stream else {
            var writer = JSONWriter(capacity: 64 + 200 * page.events.count)
            writer.beginObject()
            writer.key("events")
            writer.beginArray()
            for event in page.events { event.write(into: &writer) }
            writer.endArray()
            writer.key("next")
            writer.number(Int(page.next))
            writer.endObject()
            return Response.json(writer.bytes, headers: headers)
        }
        var text = "retry: 1000\n\n"
        for event in page.events {
            text += "id: \(event.seq)\nevent: change\ndata: \(event.json)\n\n"
        }
        if page.events.isEmpty { text += "id: \(page.next)\n\n" }
        return Response(status: 200, headers: [("Content-Type", "text/event-stream")] + headers, body: Array(text.utf8))
    }
}
