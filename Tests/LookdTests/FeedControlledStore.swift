@testable import LookdServer
import Locking
import Synchronization

/// A store whose change feed the test drives: every call goes to an SQLite store, and `feed` reports what the test
/// says (as the PostgreSQL listener would when its connection is lost and back). `failing` makes every call throw
/// `StoreError` (as a database that cannot be reached does); `commitLost` makes a publish throw `PublishOutcomeUnknown`
/// (as a COMMIT whose connection died and could not be read back does).
final class FeedControlledStore: LookStore, @unchecked Sendable {
    let inner: SQLiteLookStore
    let handler = LockedValue<(@Sendable (StoreChange) -> Void)?>(nil)
    let failing = Atomic<Bool>(false)
    let commitLost = Atomic<Bool>(false)

    init(directory: String) throws { inner = try SQLiteLookStore(directory: directory) }

    func feed(_ change: StoreChange) { handler.withLock { $0 }?(change) }

    private func check() throws {
        if failing.load(ordering: .relaxed) { throw StoreError(sqlstate: "08006", message: "no primary") }
    }

    var displayLocation: String { inner.displayLocation }
    func ping() throws { try check(); try inner.ping() }
    func current(appKey: String) throws -> StoredVersion? { try check(); return try inner.current(appKey: appKey) }
    func version(appKey: String, _ version: Int) throws -> StoredVersion? { try check(); return try inner.version(appKey: appKey, version) }
    func history(appKey: String, limit: Int) throws -> [StoredVersion] { try check(); return try inner.history(appKey: appKey, limit: limit) }
    func appCount() throws -> Int { try check(); return try inner.appCount() }
    func versionCount() throws -> Int { try check(); return try inner.versionCount() }
    func appKeys(after: String?, limit: Int) throws -> [String] { try check(); return try inner.appKeys(after: after, limit: limit) }
    func currentVersions(appKeys: [String]) throws -> [String: Int] { try check(); return try inner.currentVersions(appKeys: appKeys) }
    func publish(appKey: String, layer: String, expected: PublishExpectation?, rolledBackFrom: Int?, kind: ChangeKind) throws -> StoredVersion {
        try check()
        if commitLost.load(ordering: .relaxed) { throw PublishOutcomeUnknown(cause: "COMMIT lost and not read back (test)") }
        return try inner.publish(appKey: appKey, layer: layer, expected: expected, rolledBackFrom: rolledBackFrom, kind: kind)
    }
    func changes(after: Int64, limit: Int) throws -> ChangePage { try check(); return try inner.changes(after: after, limit: limit) }
    func compactChanges(before cutoffMilliseconds: Int64) throws -> Int { try check(); return try inner.compactChanges(before: cutoffMilliseconds) }
    func registerReceivers(_ receivers: [(id: String, url: String)]) throws { try check(); try inner.registerReceivers(receivers) }
    func claimDeliveries(receiver: String, owner: String, nowMilliseconds: Int64, leaseMilliseconds: Int64, limit: Int) throws -> [WebhookDelivery] {
        try check()
        return try inner.claimDeliveries(receiver: receiver, owner: owner, nowMilliseconds: nowMilliseconds, leaseMilliseconds: leaseMilliseconds, limit: limit)
    }
    func finishDelivery(_ delivery: WebhookDelivery, owner: String, outcome: DeliveryOutcome, nowMilliseconds: Int64) throws -> Bool {
        try check()
        return try inner.finishDelivery(delivery, owner: owner, outcome: outcome, nowMilliseconds: nowMilliseconds)
    }
    func deliveries(receiver: String) throws -> [DeliveryRecord] { try check(); return try inner.deliveries(receiver: receiver) }
    func importVersions(appKey: String, _ versions: [StoredVersion]) throws -> Int { try check(); return try inner.importVersions(appKey: appKey, versions) }
    func draftRow(appKey: String) throws -> StoredDraft? { try check(); return try inner.draftRow(appKey: appKey) }
    func saveDraft(appKey: String, layer: String, expected: DraftExpectation?) throws -> StoredDraft { try check(); return try inner.saveDraft(appKey: appKey, layer: layer, expected: expected) }
    func deleteDraft(appKey: String, expected: Int?) throws -> StoredDraft { try check(); return try inner.deleteDraft(appKey: appKey, expected: expected) }
    func publishDraft(appKey: String, expected: PublishExpectation?) throws -> StoredVersion { try check(); return try inner.publishDraft(appKey: appKey, expected: expected) }
    func revokePreviewTokens(appKey: String) throws -> StoredDraft { try check(); return try inner.revokePreviewTokens(appKey: appKey) }
    func watchChanges(_ handler: @escaping @Sendable (StoreChange) -> Void) { self.handler.withLock { $0 = handler } }
    /// Also forgets the change handler, as the PostgreSQL store's listener thread does when it stops: the handler
    /// holds the services, which hold this store, so keeping it leaked the whole graph (LeakSanitizer, `make sanitize`).
    func close() {
        handler.withLock { $0 = nil }
        inner.close()
    }
}
