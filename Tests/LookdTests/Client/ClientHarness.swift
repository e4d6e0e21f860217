import Foundation
import LookClient
@testable import LookdServer
import StableJSON

/// The daemon's routes and services (an `InProcessApp`) served by the real HTTP engine on 127.0.0.1, with a
/// `FaultProxy` in front: what a device talks to. Publishes go straight to the services. Stopped when released.
final class LiveLookd: @unchecked Sendable {
    let app: InProcessApp
    let server: Server
    let port: UInt16
    let proxy: FaultProxy
    let cache: TemporaryDirectory
    let clock = TestClock()

    init() throws {
        app = try InProcessApp()
        server = Server(router: app.router, limits: WireServer.testLimits(), metrics: app.services.metrics, accessLog: try AccessLog(destination: "off"))
        port = try server.start(host: "127.0.0.1", port: 0)
        proxy = try FaultProxy(upstream: port)
        cache = try TemporaryDirectory()
    }

    deinit {
        proxy.stop()
        server.stop(grace: 0)
    }

    var proxyURL: URL { URL(string: "http://127.0.0.1:\(proxy.port)")! }

    /// Publishes `layer` as the app's next version (`version` is the one it becomes) and returns that version.
    @discardableResult
    func publish(_ key: String, _ layer: JSONValue, version: Int) throws -> Int {
        let precondition = version == 1 ? ("If-None-Match", "*") : ("If-Match", "\"v\(version - 1)\"")
        let result = try app.request("PUT", "/v1/apps/\(key)/look", headers: [precondition], body: JSONWriter.bytes(layer), admin: true)
        guard result.status == 200 || result.status == 201 else { throw HarnessError("publish answered \(result.status): \(result.text)") }
        return version
    }

    /// Saves `layer` as the app's draft (`version` is the draft version it becomes) and mints a preview token for it.
    func draftToken(_ key: String, _ layer: JSONValue, version: Int) throws -> String {
        let precondition = version == 1 ? ("If-None-Match", "*") : ("If-Match", "\"d\(version - 1)\"")
        let saved = try app.request("PUT", "/v1/apps/\(key)/look/draft", headers: [precondition], body: JSONWriter.bytes(layer), admin: true)
        guard saved.status == 200 || saved.status == 201 else { throw HarnessError("draft answered \(saved.status): \(saved.text)") }
        let minted = try app.request("POST", "/v1/apps/\(key)/look/draft/preview-tokens", admin: true)
        guard minted.status == 201, let token = minted.json["token"] as? String else { throw HarnessError("mint answered \(minted.status): \(minted.text)") }
        return token
    }

    /// Each cache file's name and bytes.
    func cacheSnapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in cacheFiles { files[name] = try Data(contentsOf: URL(fileURLWithPath: cache.path + "/" + name)) }
        return files
    }

    /// A client of `key` through the proxy (or `server`), caching in this value's directory, on the test clock.
    func client(_ key: String, server: URL? = nil, layers: AppLayers = AppLayers(), timeout: TimeInterval = 10,
                cache: URL? = nil) -> LookClient {
        var configuration = LookClient.Configuration()
        configuration.requestTimeout = timeout
        let clock = self.clock
        configuration.clock = { clock.now }
        configuration.jitter = { 0.5 }
        return LookClient(server: server ?? proxyURL, appKey: key, cache: cache ?? URL(fileURLWithPath: self.cache.path), layers: layers,
                          configuration: configuration)
    }

    /// The daemon's resolve of three layers.
    func resolve(_ dashboard: JSONValue?, _ layers: AppLayers) throws -> [UInt8] {
        var members: [String: JSONValue] = [:]
        if let dashboard { members["dashboard"] = dashboard }
        if let code = layers.code { members["code"] = code }
        if let inferred = layers.inferred { members["inferred"] = inferred }
        return try app.request("POST", "/v1/looks/resolve", body: JSONWriter.bytes(.object(members))).body
    }

    /// The cache files in the directory.
    var cacheFiles: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).sorted() }
}

/// A wall clock the test moves by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}
