/// Every route, in matching order. A new resource is one file in Routes/ plus one line here.
enum Routes {
    /// `responseCache`: the SDK fetch's responses in the engine's response cache, which the fetch route fills (nil:
    /// none; it must be the `DerivedLookCache` the services were built with, which keeps it coherent). `prefill`: a
    /// publish here puts its version's every language there after answering (`AppRoutes.prefill`; the daemon's
    /// default, `--no-prefill` turns it off).
    static func router(_ services: AppServices, responseCache: LookResponseCache? = nil, prefill: Bool = false) -> Router {
        let prefillCache = prefill ? responseCache : nil
        var router = Router()
        HealthRoutes.register(into: &router, app: services)
        StringsRoutes.register(into: &router, app: services)
        LintRoutes.register(into: &router, app: services)
        LookRoutes.register(into: &router, app: services)
        AppRoutes.register(into: &router, app: services, responseCache: responseCache, prefill: prefillCache)
        ChangeRoutes.register(into: &router, app: services)
        PreviewRoutes.register(into: &router, app: services)
        PreviewMatrixRoutes.register(into: &router, app: services)
        PreviewEditorRoutes.register(into: &router, app: services)
        ReportRoutes.register(into: &router, app: services)
        DraftRoutes.register(into: &router, app: services, prefill: prefillCache)
        PreviewTokenRoutes.register(into: &router, app: services)
        OpenAPIRoute.register(into: &router, limits: services.limits)
        return router
    }
}
