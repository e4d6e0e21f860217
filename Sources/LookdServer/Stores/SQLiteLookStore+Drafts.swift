import CSQLite

/// Drafts in SQLite: the `look_drafts` table (one row per app that ever had a draft), written by the writer
/// connection in IMMEDIATE transactions with `synchronous=FULL`, like publishes.
extension SQLiteLookStore {
    static let draftSchema = """
        CREATE TABLE IF NOT EXISTS look_drafts(
            app_key TEXT PRIMARY KEY,
            version INTEGER NOT NULL CHECK (version >= 1),
            layer TEXT,
            saved_at TEXT NOT NULL,
            token_epoch INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;
        """

    func draftRow(appKey: String) throws -> StoredDraft? {
        try read { try Self.draftRow(appKey: appKey, $0) }
    }

    func saveDraft(appKey: String, layer: String, expected: DraftExpectation?) throws -> StoredDraft {
        try transaction { connection in
            let row = try StoredDraft.saved(over: try Self.draftRow(appKey: appKey, connection), expected: expected, layer: layer)
            try Self.store(appKey: appKey, row, connection)
            return row
        }
    }

    func deleteDraft(appKey: String, expected: Int?) throws -> StoredDraft {
        try transaction { connection in
            let row = try StoredDraft.existing(try Self.draftRow(appKey: appKey, connection), expected: expected).emptied()
            try Self.store(appKey: appKey, row, connection)
            return row
        }
    }

    func publishDraft(appKey: String, expected: PublishExpectation?) throws -> StoredVersion {
        try transaction { connection in
            let draft = try StoredDraft.existing(try Self.draftRow(appKey: appKey, connection), expected: nil)
            let current = try Self.current(appKey: appKey, connection)?.version
            let stored = try StoredVersion.next(after: current, expected: expected, layer: draft.layer ?? "{}", rolledBackFrom: nil)
            try insert(appKey: appKey, stored, connection)
            _ = try FeedSQL.append(appKey: appKey, stored: stored, kind: .publish, connection)
            try Self.store(appKey: appKey, draft.emptied(), connection)
            return stored
        }
    }

    func revokePreviewTokens(appKey: String) throws -> StoredDraft {
        try transaction { connection in
            var row = try StoredDraft.existing(try Self.draftRow(appKey: appKey, connection), expected: nil)
            row.tokenEpoch += 1
            try Self.store(appKey: appKey, row, connection)
            return row
        }
    }

    private static func draftRow(appKey: String, _ connection: SQLiteConnection) throws -> StoredDraft? {
        var found: StoredDraft?
        try connection.query("SELECT version, layer, saved_at, token_epoch FROM look_drafts WHERE app_key = ?", [.text(appKey)]) { row in
            found = StoredDraft(version: Int(row.integer(0)), layer: row.isNull(1) ? nil : row.text(1), savedAt: row.text(2),
                                tokenEpoch: Int(row.integer(3)))
        }
        return found
    }

    private static func store(appKey: String, _ row: StoredDraft, _ connection: SQLiteConnection) throws {
        try connection.query("""
            INSERT INTO look_drafts(app_key, version, layer, saved_at, token_epoch) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(app_key) DO UPDATE SET version = excluded.version, layer = excluded.layer,
                saved_at = excluded.saved_at, token_epoch = excluded.token_epoch
            """, [.text(appKey), .integer(Int64(row.version)), row.layer.map { .text($0) } ?? .null, .text(row.savedAt),
                  .integer(Int64(row.tokenEpoch))])
    }
}
