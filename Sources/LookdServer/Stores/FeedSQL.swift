/// A connection the change feed's statements run on: both back ends, inside the caller's transaction when it holds
/// one. Statements use `$1`, `$2`, … in order of first appearance (PostgreSQL's positional parameters; SQLite's
/// named parameters of the same spelling bind by that order) and SQL both dialects accept (`CAST(… AS BIGINT)` where
/// PostgreSQL cannot infer a parameter's type).
protocol FeedConnection {
    /// Runs one statement and returns its rows, every field as text (nil: NULL). Throws StoreError.
    @discardableResult
    func rows(_ sql: String, _ parameters: [SQLiteValue]) throws -> [[String?]]
}

extension SQLiteConnection: FeedConnection {
    func rows(_ sql: String, _ parameters: [SQLiteValue]) throws -> [[String?]] {
        var rows: [[String?]] = []
        try query(sql, parameters) { row in
            rows.append((0..<row.columnCount).map { row.isNull($0) ? nil : row.text($0) })
        }
        return rows
    }
}

extension PostgresConnection: FeedConnection {
    func rows(_ sql: String, _ parameters: [SQLiteValue]) throws -> [[String?]] {
        try query(sql, parameters.map { value -> String? in
            switch value {
            case .integer(let number): String(number)
            case .text(let text): text
            case .null: nil
            }
        })
    }
}

/// The change feed and the webhook deliveries in SQL, written once for both back ends (`SQLiteLookStore` and
/// `PostgresLookStore` run them on their own connections and transactions).
///
/// Tables (created by each back end's schema): `feed_state` (one row: `last_seq`, `compacted_through`; updating
/// `last_seq` in the publishing transaction locks the row until COMMIT, so events commit in `seq` order),
/// `change_events`, `webhook_receivers` and `webhook_deliveries` (one row per event and receiver, its lease).
enum FeedSQL {
    /// Appends the event for `stored` and one delivery per registered receiver. Call inside the publishing
    /// transaction, after the version's row. Returns the event.
    static func append(appKey: String, stored: StoredVersion, kind: ChangeKind, _ connection: some FeedConnection) throws -> ChangeEvent {
        let rows = try connection.rows("UPDATE feed_state SET last_seq = last_seq + 1 WHERE id = 1 RETURNING last_seq", [])
        guard let text = rows.first?.first ?? nil, let seq = Int64(text) else {
            throw StoreError(code: "feed", message: "the feed_state row is missing", backend: "lookd")
        }
        let event = ChangeEvent(seq: seq, appKey: appKey, stored: stored, kind: kind)
        let now = unixMilliseconds()
        try connection.rows("INSERT INTO change_events(seq, app_key, version, kind, etag, at, at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                            [.integer(seq), .text(appKey), .integer(Int64(stored.version)), .text(kind.rawValue), .text(event.etag),
                             .text(event.at), .integer(now)])
        try connection.rows("""
            INSERT INTO webhook_deliveries(receiver, seq, app_key, body, state, attempts, created_ms, next_ms)
            SELECT receiver, CAST($1 AS BIGINT), $2, $3, 'pending', 0, CAST($4 AS BIGINT), CAST($4 AS BIGINT) FROM webhook_receivers
            """, [.integer(seq), .text(appKey), .text(event.json), .integer(now)])
        return event
    }

    static func changes(after: Int64, limit: Int, _ connection: some FeedConnection) throws -> ChangePage {
        let state = try connection.rows("SELECT last_seq, compacted_through FROM feed_state WHERE id = 1", [])
        let events = try connection.rows("SELECT seq, app_key, version, kind, etag, at FROM change_events WHERE seq > $1 ORDER BY seq LIMIT $2",
                                         [.integer(after), .integer(Int64(limit))]).map { row in
            ChangeEvent(seq: int(row[0]), appKey: row[1] ?? "", version: Int(int(row[2])), kind: ChangeKind(rawValue: row[3] ?? ""),
                        etag: row[4] ?? "", at: row[5] ?? "")
        }
        return ChangePage(events: events, latest: int(state.first?[0]), compactedThrough: int(state.first?[1]))
    }

    static func compact(before cutoff: Int64, _ connection: some FeedConnection) throws -> Int {
        let through = int(try connection.rows("""
            SELECT coalesce(max(seq), 0) FROM change_events WHERE at_ms < $1 AND seq < (SELECT last_seq FROM feed_state WHERE id = 1)
            """, [.integer(cutoff)]).first?[0])
        try connection.rows("DELETE FROM webhook_deliveries WHERE state <> 'pending' AND done_ms < $1", [.integer(cutoff)])
        guard through > 0 else { return 0 }
        let deleted = try connection.rows("DELETE FROM change_events WHERE seq <= $1 RETURNING seq", [.integer(through)]).count
        try connection.rows("UPDATE feed_state SET compacted_through = $1 WHERE id = 1 AND compacted_through < $1", [.integer(through)])
        return deleted
    }

    static func register(_ receivers: [(id: String, url: String)], _ connection: some FeedConnection) throws {
        for receiver in receivers {
            try connection.rows("INSERT INTO webhook_receivers(receiver, url, added_at) VALUES ($1, $2, $3) ON CONFLICT (receiver) DO NOTHING",
                                [.text(receiver.id), .text(receiver.url), .text(utcTimestamp())])
        }
    }

    /// The due deliveries `claimDeliveries` may lease (see `LookStore`), without leasing them.
    static func due(receiver: String, now: Int64, limit: Int, _ connection: some FeedConnection) throws -> [WebhookDelivery] {
        let busy = int(try connection.rows("SELECT count(*) FROM webhook_deliveries WHERE receiver = $1 AND state = 'pending' AND lease_until > $2",
                                           [.text(receiver), .integer(now)]).first?[0])
        let room = limit - Int(busy)
        guard room > 0 else { return [] }
        return try connection.rows("""
            SELECT d.receiver, d.seq, d.app_key, d.body, d.attempts, d.created_ms FROM webhook_deliveries d
            WHERE d.receiver = $1 AND d.state = 'pending' AND d.next_ms <= $2 AND (d.lease_until IS NULL OR d.lease_until <= $2)
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
                              WHERE e.receiver = d.receiver AND e.app_key = d.app_key AND e.state = 'pending' AND e.seq < d.seq)
            ORDER BY d.seq LIMIT $3
            """, [.text(receiver), .integer(now), .integer(Int64(room))]).map { row in
            WebhookDelivery(receiver: row[0] ?? "", seq: int(row[1]), appKey: row[2] ?? "", body: row[3] ?? "", attempts: Int(int(row[4])),
                            createdAtMilliseconds: int(row[5]))
        }
    }

    /// Leases `delivery` to `owner` until `until`, when it is still free. Returns whether it was leased.
    static func lease(_ delivery: WebhookDelivery, owner: String, now: Int64, until: Int64, _ connection: some FeedConnection) throws -> Bool {
        !(try connection.rows("""
            UPDATE webhook_deliveries SET lease_owner = $1, lease_until = $2
            WHERE receiver = $3 AND seq = $4 AND state = 'pending' AND (lease_until IS NULL OR lease_until <= $5) RETURNING seq
            """, [.text(owner), .integer(until), .text(delivery.receiver), .integer(delivery.seq), .integer(now)]).isEmpty)
    }

    static func finish(_ delivery: WebhookDelivery, owner: String, outcome: DeliveryOutcome, now: Int64,
                       _ connection: some FeedConnection) throws -> Bool {
        let (state, next, reason): (DeliveryState, Int64, String?) = switch outcome {
        case .delivered: (.delivered, now, nil)
        case .retry(let at, let reason): (.pending, at, reason)
        case .failed(let reason): (.failed, now, reason)
        }
        let recorded = !(try connection.rows("""
            UPDATE webhook_deliveries SET state = $1, next_ms = $2, last_error = $3, attempts = attempts + 1, lease_owner = NULL,
                lease_until = NULL, done_ms = $4
            WHERE receiver = $5 AND seq = $6 AND state = 'pending' AND lease_owner = $7 RETURNING seq
            """, [.text(state.rawValue), .integer(next), reason.map { .text($0) } ?? .null, state == .pending ? .null : .integer(now),
                  .text(delivery.receiver), .integer(delivery.seq), .text(owner)]).isEmpty)
        if recorded && outcome == .delivered {
            // The receiver answers again: the deliveries it failed while it was away are due now, not at the end of their
            // backoff (which reaches an hour after a long outage).
            try connection.rows("UPDATE webhook_deliveries SET next_ms = $1 WHERE receiver = $2 AND state = 'pending' AND next_ms > $1",
                                [.integer(now), .text(delivery.receiver)])
        }
        return recorded
    }

    static func deliveries(receiver: String, _ connection: some FeedConnection) throws -> [DeliveryRecord] {
        try connection.rows("SELECT receiver, seq, app_key, state, attempts, last_error FROM webhook_deliveries WHERE receiver = $1 ORDER BY seq",
                            [.text(receiver)]).map { row in
            DeliveryRecord(receiver: row[0] ?? "", seq: int(row[1]), appKey: row[2] ?? "", state: DeliveryState(rawValue: row[3] ?? "") ?? .pending,
                           attempts: Int(int(row[4])), lastError: row[5])
        }
    }

    private static func int(_ field: String??) -> Int64 { (field ?? nil).flatMap { Int64($0) } ?? 0 }
}

/// Now as Unix milliseconds (the wall clock: compared with other replicas' stamps in the shared store).
func unixMilliseconds() -> Int64 {
    let now = currentRealtime()
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec / 1_000_000)
}
