/// Every route, in matching order. A new resource is one file in Routes/ plus one line here.
enum Routes {
    /// `responseCache`: the SDK fetch's responses in the engine's response cache, which the fetch route fills (nil:
    /// none; it must be the `DerivedLookCache` the services were built with, which keeps it coherent).
    static func router(_ services: AppServices, responseCache: LookResponseCache? = nil) -> Router {
        var router = Router()
        HealthRoutes.register(into: &router, app: services)
        StringsRoutes.register(into: &router, app: services)
        LintRoutes.register(into: &router, app: services)
        LookRoutes.register(into: &router, app: services)
        AppRoutes.register(into: &router, app: services, responseCache: responseCache)
        ChangeRoutes.register(into: &router, app: services)
        PreviewRoutes.register(into: &router, app: services)
        PreviewMatrixRoutes.register(into: &router, app: services)
        PreviewEditorRoutes.register(into: &router, app: services)
        ReportRoutes.register(into: &router, app: services)
        DraftRoutes.register(into: &router, app: services)
        PreviewTokenRoutes.register(into: &router, app: services)
        OpenAPIRoute.register(into: &router, limits: services.limits)
        return router
    }
}
