@testable import LookdServer
import Testing

@Suite("Store location: --store URLs and password redaction", .timeLimit(.minutes(10)))
struct StoreLocationTests {
    @Test func parsesSQLiteAndPostgresURLsAndRefusesOthers() throws {
        #expect(try StoreLocation.parse("sqlite:./.lookd") == .sqlite(directory: "./.lookd"))
        #expect(try StoreLocation.parse("postgres://db/looks") == .postgres(uri: "postgres://db/looks"))
        #expect(try StoreLocation.parse("postgresql://a,b:5433/looks?target_session_attrs=read-write") ==
                .postgres(uri: "postgresql://a,b:5433/looks?target_session_attrs=read-write"))
        #expect(throws: ConfigurationError.self) { try StoreLocation.parse("sqlite:") }
        let refused = #expect(throws: ConfigurationError.self) { try StoreLocation.parse("mysql://root:hunter2-secret@db/looks") }
        #expect(refused?.description.contains("hunter2-secret") == false)
    }

    @Test(arguments: [
        ("postgresql://lookd:s3cr%40t@db1:5432,db2/looks?sslmode=require", "postgresql://lookd:***@db1:5432,db2/looks?sslmode=require"),
        ("postgresql://lookd@db/looks?password=s3cr%40t&sslmode=require", "postgresql://lookd@db/looks?password=***&sslmode=require"),
        ("postgres://lookd:s3cr%40t@db/looks?PASSWORD=s3cr%40t", "postgres://lookd:***@db/looks?PASSWORD=***"),
        ("postgresql://lookd@db/looks", "postgresql://lookd@db/looks"),
        ("postgresql:///looks?host=/run/postgresql", "postgresql:///looks?host=/run/postgresql"),
    ])
    func redactsEveryPassword(uri: String, shown: String) {
        #expect(StoreLocation.postgres(uri: uri).redacted == shown)
        let secrets = StoreLocation.secrets(uri)
        if uri.contains("s3cr") {
            #expect(Set(secrets) == ["s3cr%40t", "s3cr@t"])
            #expect(PostgresConnection.scrub("password authentication failed: s3cr@t / s3cr%40t", secrets) == "password authentication failed: *** / ***")
        } else {
            #expect(secrets.isEmpty)
        }
    }
}
