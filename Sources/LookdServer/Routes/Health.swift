/// `GET /healthz` (the process answers), `GET /readyz` (the store answers a query), `GET /metrics`.
enum HealthRoutes {
    static func register(into router: inout Router, app: AppServices) {
        router.add(Route("GET", "/healthz", doc: RouteDoc(summary: "Liveness: the daemon answers.", responses: [200: "ok"])) { _ in
            Response.json(Array("{\"status\":\"ok\"}".utf8), headers: [("Cache-Control", "no-store")])
        })
        router.add(Route("GET", "/readyz", doc: RouteDoc(summary: "Readiness: the store answers a query.",
                                                          responses: [200: "ready", 503: "the store is unavailable (store_unavailable)"])) { _ in
            try app.ready()
            return Response.json(Array("{\"status\":\"ready\"}".utf8), headers: [("Cache-Control", "no-store")])
        })
        router.add(Route("GET", "/metrics", doc: RouteDoc(summary: "Prometheus metrics: requests by route and status, latency histogram, cache hits, store errors, open connections.",
                                                           responses: [200: "Prometheus text format 0.0.4"], contentType: "text/plain")) { _ in
            Response.text(app.metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        })
    }
}
