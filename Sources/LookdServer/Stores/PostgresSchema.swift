/// The PostgreSQL schema and its migrations, applied at start-up under an advisory lock so replicas
/// starting together do not race; the applied version is recorded in `lookd_schema`.
///
/// Tables: `apps` (one row per app; its row lock serialises the app's publishes) and `look_versions`
/// (append-only: a trigger refuses UPDATE and DELETE; a rollback appends a copy of an old layer); from version 2
/// `look_drafts` (one row per app that ever had a draft; see `StoredDraft`); from version 3 the change feed and webhook
/// deliveries (`FeedSQL`): `feed_state`, `change_events`, `webhook_receivers`, `webhook_deliveries`.
enum PostgresSchema {
    /// The version this lookd writes and reads.
    static let version = 3
    /// `pg_advisory_lock` key held while migrating ("lookd" in ASCII).
    static let lockKey = "465339975780"

    /// Each migration's statements; migration N brings the schema from version N-1 to N.
    static let migrations: [[String]] = [
        [
            "CREATE TABLE apps(app_key text COLLATE \"C\" PRIMARY KEY, created_at text NOT NULL)",
            """
            CREATE TABLE look_versions(
                app_key text COLLATE "C" NOT NULL REFERENCES apps(app_key),
                version integer NOT NULL CHECK (version >= 1),
                layer text NOT NULL,
                published_at text NOT NULL,
                rolled_back_from integer,
                PRIMARY KEY (app_key, version))
            """,
            """
            CREATE FUNCTION lookd_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'look_versions is append-only'; END $$
            """,
            "CREATE TRIGGER look_versions_append_only BEFORE UPDATE OR DELETE ON look_versions FOR EACH ROW EXECUTE FUNCTION lookd_append_only()",
        ],
        [
            """
            CREATE TABLE look_drafts(
                app_key text COLLATE "C" PRIMARY KEY,
                version integer NOT NULL CHECK (version >= 1),
                layer text,
                saved_at text NOT NULL,
                token_epoch integer NOT NULL DEFAULT 0)
            """,
        ],
        [
            "CREATE TABLE feed_state(id integer PRIMARY KEY CHECK (id = 1), last_seq bigint NOT NULL, compacted_through bigint NOT NULL)",
            "INSERT INTO feed_state(id, last_seq, compacted_through) VALUES (1, 0, 0)",
            """
            CREATE TABLE change_events(
                seq bigint PRIMARY KEY,
                app_key text COLLATE "C" NOT NULL,
                version integer NOT NULL,
                kind text NOT NULL,
                etag text NOT NULL,
                at text NOT NULL,
                at_ms bigint NOT NULL)
            """,
            "CREATE TABLE webhook_receivers(receiver text COLLATE \"C\" PRIMARY KEY, url text NOT NULL, added_at text NOT NULL)",
            """
            CREATE TABLE webhook_deliveries(
                receiver text COLLATE "C" NOT NULL,
                seq bigint NOT NULL,
                app_key text COLLATE "C" NOT NULL,
                body text NOT NULL,
                state text NOT NULL,
                attempts integer NOT NULL,
                created_ms bigint NOT NULL,
                next_ms bigint NOT NULL,
                lease_owner text,
                lease_until bigint,
                last_error text,
                done_ms bigint,
                PRIMARY KEY (receiver, seq))
            """,
            "CREATE INDEX webhook_deliveries_app ON webhook_deliveries(receiver, state, app_key, seq)",
        ],
    ]

    /// Creates or migrates the schema on `connection`. Throws StoreError, also when the database's schema
    /// is newer than this lookd's (`lookd` code: upgrade lookd first).
    static func migrate(_ connection: PostgresConnection) throws {
        try connection.query("SELECT pg_advisory_lock($1::bigint)", [lockKey])
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1::bigint)", [lockKey]) }
        try connection.query("CREATE TABLE IF NOT EXISTS lookd_schema(version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        let rows = try connection.query("SELECT coalesce(max(version), 0) FROM lookd_schema")
        let current = Int(rows.first?.first.flatMap { $0 } ?? "0") ?? 0
        guard current <= version else {
            throw StoreError(code: "schema", message: "the database's schema is version \(current); this lookd knows up to \(version): upgrade lookd",
                             backend: "PostgreSQL")
        }
        for target in stride(from: current + 1, through: version, by: 1) {
            try connection.query("BEGIN")
            do {
                for statement in migrations[target - 1] { try connection.query(statement) }
                try connection.query("INSERT INTO lookd_schema(version) VALUES ($1::integer)", [String(target)])
                try connection.query("COMMIT")
            } catch {
                _ = try? connection.query("ROLLBACK")
                throw error
            }
        }
    }
}
