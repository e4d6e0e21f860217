import LookResolver
import StableJSON

extension LookService {
    /// The accessibility report of the app's current published version, resolved over the defaults (what the SDK
    /// fetch serves). Throws `LookServiceError.appUnknown` when it was never published, `StoreUnavailableError`.
    func publishedReport(appKey: String) throws -> LookReport {
        guard let stored = try store.call({ try $0.current(appKey: appKey) }) else { throw LookServiceError.appUnknown }
        var layers = LookLayers()
        layers.dashboard = try JSONValue(parsing: stored.layer)
        return LookReport(appKey: appKey, version: stored.version, draft: false, look: look(layers))
    }
}
