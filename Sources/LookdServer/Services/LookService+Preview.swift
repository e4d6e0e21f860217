import Foundation
import LookResolver
import StableJSON
import Strings

/// Preview tokens: a draft shown on a real device through the SDK's own fetch. Minted by an admin for the draft's
/// current version; refused (`DraftServiceError.previewTokenInvalid`, nothing about the draft) once forged,
/// expired, revoked, superseded by a newer draft version, or presented for another app.
extension LookService {
    /// Mints a token for the app's current draft, valid `lifetime` seconds (`PreviewToken.lifetimes`) from `now`
    /// (Unix seconds). Returns the token and its claims. Throws `DraftServiceError.draftUnknown`, `StoreUnavailableError`,
    /// `CryptoError`.
    func mintPreviewToken(appKey: String, lifetime: Int, key: [UInt8], now: Int) throws -> (String, PreviewToken) {
        guard let row = try store.call({ try $0.draftRow(appKey: appKey) }), row.layer != nil else { throw DraftServiceError.draftUnknown }
        let claims = PreviewToken(appKey: appKey, draftVersion: row.version, epoch: row.tokenEpoch, expires: now + lifetime)
        return (try claims.signed(key: key), claims)
    }

    /// The SDK fetch's body for the draft a token names, in `locale`: the fetch's shape with `draft: true`,
    /// `version` the draft's and `publishedAt` null. Never cached. Throws `DraftServiceError.previewTokenInvalid`
    /// (`key` nil: no admin token, so no token is valid), `StoreUnavailableError`.
    func previewFetch(appKey: String, token: String, key: [UInt8]?, locale: LocaleTag, now: Int) throws -> [UInt8] {
        let (row, layer) = try previewDraft(appKey: appKey, token: token, key: key, now: now)
        let stored = StoredVersion(version: row.version, layer: layer, publishedAt: row.savedAt, rolledBackFrom: nil)
        let resolved = look(LookLayers(dashboard: try Self.stored(layer)))
        let built = build(appKey: appKey, locale: locale, SharedLook(appKey: appKey, stored: stored, resolved: resolved))
        guard case .object(let object) = try JSONValue(parsing: String(decoding: built.body, as: UTF8.self)) else { return built.body }
        var members = object.dictionary
        members["draft"] = .bool(true)
        members["publishedAt"] = .null
        return JSONWriter.bytes(.object(members))
    }

    /// The draft a preview token names (its row and layer text), when the token holds at `now` (Unix seconds). Throws
    /// `DraftServiceError.previewTokenInvalid` (`key` nil: no admin token, so no token is valid), `StoreUnavailableError`.
    func previewDraft(appKey: String, token: String, key: [UInt8]?, now: Int) throws -> (StoredDraft, String) {
        guard let key else { throw DraftServiceError.previewTokenInvalid(reason: "no admin token is configured") }
        guard let claims = PreviewToken(verifying: token, key: key) else { throw DraftServiceError.previewTokenInvalid(reason: "malformed or forged") }
        guard claims.appKey == appKey else { throw DraftServiceError.previewTokenInvalid(reason: "for another app") }
        guard claims.expires > now else { throw DraftServiceError.previewTokenInvalid(reason: "expired") }
        guard let row = try store.call({ try $0.draftRow(appKey: appKey) }), let layer = row.layer, row.version == claims.draftVersion,
              row.tokenEpoch == claims.epoch else {
            throw DraftServiceError.previewTokenInvalid(reason: "revoked, or the draft changed")
        }
        return (row, layer)
    }
}
