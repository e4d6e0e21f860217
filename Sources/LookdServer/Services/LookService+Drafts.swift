import LookResolver
import StableJSON

/// The app's draft: saved, read, deleted and published by the dashboard (admin), previewed with tokens. A draft never
/// enters the look cache (nor any cache derived from it): only its publish (a new version) invalidates them.
extension LookService {
    /// The app's current draft and its layer. Throws `DraftServiceError.draftUnknown`, `StoreUnavailableError`.
    func draft(appKey: String) throws -> (StoredDraft, JSONValue) {
        guard let row = try store.call({ try $0.draftRow(appKey: appKey) }), let text = row.layer else { throw DraftServiceError.draftUnknown }
        return (row, try Self.stored(text))
    }

    /// Validates `body` as a publish would and saves it as the app's draft when `expected` holds. Returns the row and
    /// the layer's warnings. Throws `LookServiceError` (malformed, over a bound, invalid: nothing saved),
    /// `DraftServiceError.draftConflict`, `StoreUnavailableError`.
    func saveDraft(appKey: String, body: [UInt8], expected: DraftExpectation?) throws -> (StoredDraft, [Diagnostic]) {
        let (layer, diagnostics) = try validatedLayer(body)
        do {
            return (try store.call { try $0.saveDraft(appKey: appKey, layer: JSONWriter.string(layer), expected: expected) }, diagnostics)
        } catch let conflict as DraftConflict {
            throw DraftServiceError.draftConflict(current: conflict.current)
        }
    }

    /// Deletes the draft (its preview tokens stop working). Throws `DraftServiceError`, `StoreUnavailableError`.
    func deleteDraft(appKey: String, expected: Int?) throws -> StoredDraft {
        try draftErrors { try store.call { try $0.deleteDraft(appKey: appKey, expected: expected) } }
    }

    /// Publishes the draft as the app's next version (one transaction; the draft is then gone) and drops the app's
    /// cached responses. Throws `DraftServiceError.draftUnknown`, `LookServiceError.versionConflict`, `StoreUnavailableError`.
    func publishDraft(appKey: String, precondition: PublishPrecondition?) throws -> StoredVersion {
        let stored: StoredVersion
        do {
            let expected = try expectation(precondition, appKey: appKey)
            stored = try draftErrors { try store.call { try $0.publishDraft(appKey: appKey, expected: expected) } }
        } catch let conflict as PublishConflict {
            throw Self.conflict(current: conflict.current)
        }
        metrics.publishes.add(1, ordering: .relaxed)
        cache.invalidate(appKey: appKey, atLeast: stored.version)
        onChange()
        return stored
    }

    /// Refuses every preview token minted so far for the app's draft. Throws `DraftServiceError.draftUnknown`, `StoreUnavailableError`.
    func revokePreviewTokens(appKey: String) throws -> StoredDraft {
        try draftErrors { try store.call { try $0.revokePreviewTokens(appKey: appKey) } }
    }

    /// The draft resolved over the defaults (nothing cached).
    func draftLook(appKey: String) throws -> (StoredDraft, ResolvedLook) {
        let (row, layer) = try draft(appKey: appKey)
        var layers = LookLayers()
        layers.dashboard = layer
        return (row, look(layers))
    }

    /// The accessibility report of the draft. Throws `DraftServiceError.draftUnknown`, `StoreUnavailableError`.
    func draftReport(appKey: String) throws -> LookReport {
        let (row, look) = try draftLook(appKey: appKey)
        return LookReport(appKey: appKey, version: row.version, draft: true, look: look)
    }

    /// The store's draft errors as the service's.
    private func draftErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch is DraftMissing {
            throw DraftServiceError.draftUnknown
        } catch let conflict as DraftConflict {
            throw DraftServiceError.draftConflict(current: conflict.current)
        }
    }
}
