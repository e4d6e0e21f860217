/// An app's draft: one unpublished dashboard layer per app, edited in place, never served by the SDK fetch.
///
/// The row outlives the draft: `version` only grows — every save, delete and publish of the draft bumps it — so
/// a draft's version (its `"d<N>"` entity tag, and the version a preview token is bound to) never names two
/// different layers, even after the draft was deleted and made again. `layer` is nil while the app has no draft.
struct StoredDraft: Sendable, Equatable {
    var version: Int
    /// The dashboard layer as canonical JSON text (sorted keys), or nil when there is no draft.
    var layer: String?
    /// UTC, `2026-11-30T10:16:43.123Z`: the last save, delete or publish.
    var savedAt: String
    /// Preview tokens minted before the last revocation carry a smaller epoch and are refused.
    var tokenEpoch: Int

    /// The row after a save of `layer` over `current` (nil: no row yet). Throws DraftConflict when `expected` does not hold.
    static func saved(over current: StoredDraft?, expected: DraftExpectation?, layer: String) throws -> StoredDraft {
        let live = current?.layer != nil ? current?.version : nil
        switch expected {
        case .none?: if live != nil { throw DraftConflict(current: live) }
        case .version(let version)?: if live != version { throw DraftConflict(current: live) }
        case nil: break
        }
        return StoredDraft(version: (current?.version ?? 0) + 1, layer: layer, savedAt: utcTimestamp(), tokenEpoch: current?.tokenEpoch ?? 0)
    }

    /// The row after the draft was deleted or published: no layer, the next version.
    func emptied() -> StoredDraft {
        StoredDraft(version: version + 1, layer: nil, savedAt: utcTimestamp(), tokenEpoch: tokenEpoch)
    }
}

/// What a draft save or delete expects of the app's current draft (the caller's precondition).
enum DraftExpectation: Sendable, Equatable {
    /// There is no draft (`If-None-Match: *`).
    case none
    /// The draft's version is exactly this one (`If-Match: "d<N>"`).
    case version(Int)
}

/// A draft save, delete or publish whose expectation did not hold; `current` is the draft's version (nil: no draft).
struct DraftConflict: Error {
    var current: Int?
}

/// A publish of the draft when the app has none.
struct DraftMissing: Error {}

/// Where drafts are kept: both back ends, beside their published versions, with the same semantics. Errors as
/// `LookStore` (StoreError for any back-end failure). Thread-safe.
protocol DraftStore: AnyObject, Sendable {
    /// The app's draft row (its `layer` nil when there is no draft), or nil when the app never had one.
    func draftRow(appKey: String) throws -> StoredDraft?

    /// Saves `layer` as the app's draft when `expected` holds (nil: unconditionally); durable on return.
    /// Throws DraftConflict (nothing written).
    func saveDraft(appKey: String, layer: String, expected: DraftExpectation?) throws -> StoredDraft

    /// Deletes the app's draft when `expected` holds. Returns the emptied row; throws DraftMissing when there is
    /// no draft, DraftConflict when the version differs.
    func deleteDraft(appKey: String, expected: Int?) throws -> StoredDraft

    /// Publishes the draft as the app's next version in one transaction: checks `expected` against the live
    /// version (PublishConflict), appends the version and its `publish` change event (`FeedSQL.append`, with the webhook
    /// deliveries), empties the draft, tells the change watchers as a publish does.
    /// Throws DraftMissing when there is no draft (nothing written).
    func publishDraft(appKey: String, expected: PublishExpectation?) throws -> StoredVersion

    /// Refuses every preview token minted so far for the app's draft (bumps `tokenEpoch`); returns the row, or
    /// throws DraftMissing when there is no draft.
    func revokePreviewTokens(appKey: String) throws -> StoredDraft
}

extension StoredDraft {
    /// Checks an expected draft version against this row (nil row or nil layer: no draft). Throws DraftMissing when
    /// there is no draft, DraftConflict when `expected` names another version.
    static func existing(_ row: StoredDraft?, expected: Int?) throws -> StoredDraft {
        guard let row, row.layer != nil else { throw DraftMissing() }
        if let expected, expected != row.version { throw DraftConflict(current: row.version) }
        return row
    }
}
