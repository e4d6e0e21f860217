/// Drafts in PostgreSQL: the `look_drafts` table (schema version 2). A save, delete or revocation holds a
/// transaction-scoped advisory lock on the app's draft (so replicas racing with one `If-Match` get one success); a
/// draft's publish runs in the publish transaction (the app's row lock and its change notification) and locks the
/// draft's row too.
extension PostgresLookStore {
    private static let draftColumns = "version, layer, saved_at, token_epoch"

    func draftRow(appKey: String) throws -> StoredDraft? {
        try pool.withConnection { try Self.draftRow(appKey: appKey, $0, lock: false) }
    }

    func saveDraft(appKey: String, layer: String, expected: DraftExpectation?) throws -> StoredDraft {
        try draftTransaction(appKey: appKey) { connection in
            let row = try StoredDraft.saved(over: try Self.draftRow(appKey: appKey, connection, lock: true), expected: expected, layer: layer)
            try Self.store(appKey: appKey, row, connection)
            return row
        }
    }

    func deleteDraft(appKey: String, expected: Int?) throws -> StoredDraft {
        try draftTransaction(appKey: appKey) { connection in
            let row = try StoredDraft.existing(try Self.draftRow(appKey: appKey, connection, lock: true), expected: expected).emptied()
            try Self.store(appKey: appKey, row, connection)
            return row
        }
    }

    func publishDraft(appKey: String, expected: PublishExpectation?) throws -> StoredVersion {
        try publishing(appKey: appKey) { connection in
            let draft = try StoredDraft.existing(try Self.draftRow(appKey: appKey, connection, lock: true), expected: nil)
            let current = try Self.current(appKey: appKey, connection)?.version
            let stored = try StoredVersion.next(after: current, expected: expected, layer: draft.layer ?? "{}", rolledBackFrom: nil)
            try Self.insert(appKey: appKey, stored, connection)
            _ = try FeedSQL.append(appKey: appKey, stored: stored, kind: .publish, connection)
            try Self.store(appKey: appKey, draft.emptied(), connection)
            return stored
        }
    }

    func revokePreviewTokens(appKey: String) throws -> StoredDraft {
        try draftTransaction(appKey: appKey) { connection in
            var row = try StoredDraft.existing(try Self.draftRow(appKey: appKey, connection, lock: true), expected: nil)
            row.tokenEpoch += 1
            try Self.store(appKey: appKey, row, connection)
            return row
        }
    }

    private func draftTransaction<T>(appKey: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        try plainTransaction { connection in
            try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", ["lookd-draft:" + appKey])
            return try body(connection)
        }
    }

    private static func draftRow(appKey: String, _ connection: PostgresConnection, lock: Bool) throws -> StoredDraft? {
        try connection.query("SELECT \(draftColumns) FROM look_drafts WHERE app_key = $1" + (lock ? " FOR UPDATE" : ""), [appKey]).first.map { row in
            StoredDraft(version: Int(row[0] ?? "") ?? 0, layer: row[1], savedAt: row[2] ?? "", tokenEpoch: Int(row[3] ?? "") ?? 0)
        }
    }

    private static func store(appKey: String, _ row: StoredDraft, _ connection: PostgresConnection) throws {
        try connection.query("""
            INSERT INTO look_drafts(app_key, version, layer, saved_at, token_epoch) VALUES ($1, $2::integer, $3, $4, $5::integer)
            ON CONFLICT (app_key) DO UPDATE SET version = excluded.version, layer = excluded.layer,
                saved_at = excluded.saved_at, token_epoch = excluded.token_epoch
            """, [appKey, String(row.version), row.layer, row.savedAt, String(row.tokenEpoch)])
    }
}
