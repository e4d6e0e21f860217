import Foundation
import Testing
@testable import LookdServer
import StableJSON

#if canImport(Glibc)
import Glibc
#endif

/// Issue 27, row 6: the SDK fetch (its misses too) and publishes never wait behind lint, resolve or preview. The
/// daemon's real routes behind the real engine, with every shared worker held on a gate (what 30 clients saturating
/// /v1/lint amount to); no timing: each answer is awaited with a read timeout far beyond any normal answer.
@Suite("Worker lanes: fetch misses and publishes while the shared workers are saturated", .timeLimit(.minutes(10)))
struct WorkerLaneTests {
    /// The `version` member of a JSON answer.
    static func version(_ response: WireResponse) -> Int? {
        ((try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any])?["version"] as? Int
    }

    /// `GET /test/hold` on the shared lane: signals `started`, then holds its worker until `release` (at most 60 s).
    static func addHold(_ router: inout Router, started: DispatchSemaphore, release: DispatchSemaphore) {
        router.add(Route("GET", "/test/hold", doc: RouteDoc(summary: "holds a shared worker", responses: [200: "released"], runsOn: .workers)) { _ in
            started.signal()
            _ = release.wait(timeout: .now() + 60)   // bounded: a test that never releases fails instead of hanging the stop
            return Response.json(Array(#"{"released":true}"#.utf8))
        })
    }

    /// A server of `router` with `limits` on an ephemeral loopback port, no access log.
    static func start(_ router: Router, _ limits: Limits) throws -> (Server, UInt16) {
        let server = Server(router: router, limits: limits, metrics: Metrics(), accessLog: try AccessLog(destination: "off"))
        return (server, try server.start(host: "127.0.0.1", port: 0))
    }

    @Test("every shared worker held: a fetch miss, a publish and a rollback are answered; the held work finishes after")
    func reservedLaneIsServedWhileSharedWorkersAreHeld() throws {
        let app = try InProcessApp()
        let path = try HostileInputTests.published(app)
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        var router = app.router
        // Stands for lint, resolve and preview: a slow shared-lane route.
        Self.addHold(&router, started: started, release: release)
        var limits = Limits()
        limits.threads = 1
        limits.workerThreads = 2
        #expect(limits.reservedWorkerThreads == 2)
        let (server, port) = try Self.start(router, limits)
        defer { server.stop(grace: 0) }

        var held: [WireConnection] = []
        for _ in 0..<limits.workerThreads {
            let connection = try WireConnection(port: port)
            try connection.send("GET /test/hold HTTP/1.1\r\nHost: x\r\n\r\n")
            held.append(connection)
            #expect(started.wait(timeout: .now() + 30) == .success, "a shared worker took the held request")
        }
        // One more shared-lane request waits in the shared queue.
        let queued = try WireConnection(port: port)
        try queued.send("GET /test/hold HTTP/1.1\r\nHost: x\r\n\r\n")

        func answer(_ request: String) throws -> WireResponse? {
            let connection = try WireConnection(port: port)
            connection.setReadTimeout(milliseconds: 30_000)
            try connection.send(request)
            return connection.responses(1).responses.first
        }
        let admin = "Authorization: Bearer \(adminToken)\r\n"
        // The publish in process invalidated the app: this fetch is a miss (store read, resolve, encode on a worker).
        let fetch = try answer("GET \(path)?lang=de HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(fetch?.status == 200)
        #expect(fetch?.header("ETag")?.hasPrefix("\"v1-") == true)
        let layer = #"{"corners":"round"}"#
        let publish = try answer("PUT \(path) HTTP/1.1\r\nHost: x\r\n\(admin)If-Match: \"v1\"\r\nContent-Type: application/json\r\nContent-Length: \(layer.utf8.count)\r\n\r\n\(layer)")
        #expect(publish?.status == 200)
        #expect(publish.flatMap { Self.version($0) } == 2)
        let rollback = try answer("POST \(path)/rollback?to=1 HTTP/1.1\r\nHost: x\r\n\(admin)Content-Length: 0\r\n\r\n")
        #expect(rollback?.status == 201)
        #expect(rollback.flatMap { Self.version($0) } == 3)
        let again = try answer("GET \(path)?lang=fr HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(again?.header("ETag")?.hasPrefix("\"v3-") == true)

        // The held and queued shared-lane requests finish once released.
        for _ in 0...limits.workerThreads { release.signal() }
        for connection in held + [queued] {
            connection.setReadTimeout(milliseconds: 30_000)
            #expect(connection.responses(1).responses.first?.status == 200)
        }
    }

    @Test("a shared-lane job runs 10 nice steps below the process (at most 19), a reserved-lane job at the process's own priority")
    func sharedLaneWorkRunsAtALowerPriority() throws {
        // One shared worker, so it runs every shared-lane request; the reserved lane has its 2 threads.
        let wire = try WireServer { $0.workerThreads = 1 }
        func nice(_ path: String) throws -> (nice: Int?, process: Int?) {
            let connection = try WireConnection(port: wire.port)
            try connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let body = connection.responses(1).responses.first?.body ?? []
            let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
            return (object?["nice"] as? Int, object?["process"] as? Int)
        }
        for _ in 0..<3 {
            let shared = try nice("/test/nice")
            let process = try #require(shared.process)
            #expect(shared.nice == min(19, process + 10))
            // A free shared worker may take the reserved-lane request; it raises its priority back first, which needs
            // root (CAP_SYS_NICE). Without it, that one request runs lowered (the reserved threads never are).
            let reserved = try nice("/test/nice-reserved").nice
            if getuid() == 0 {
                #expect(reserved == process)
            } else {
                #expect(reserved == process || reserved == min(19, process + 10))
            }
        }
    }

    /// The calling thread's name (/proc/thread-self/comm), as `top -H`, perf and /proc/PID/task/*/comm show it.
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("the engine's threads are named by their job; with every shared worker held, a reserved-lane request runs on a reserved thread")
    func threadsAreNamedByLane() throws {
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        var router = Router()
        func name(_ path: String, _ runsOn: Executor?, _ lane: WorkerLane) {
            router.add(Route("GET", path, doc: RouteDoc(summary: "the answering thread's name", responses: [200: "name"], runsOn: runsOn, lane: lane)) { _ in
                Response.json(JSONWriter.bytes(.object(["name": .string(Self.threadName())])))
            })
        }
        name("/test/name", .loop, .shared)
        name("/test/name-shared", .workers, .shared)
        name("/test/name-reserved", .workers, .reserved)
        Self.addHold(&router, started: started, release: release)
        var limits = Limits()
        limits.threads = 1
        limits.workerThreads = 1
        let (server, port) = try Self.start(router, limits)
        defer { server.stop(grace: 0) }
        func answeredBy(_ path: String) throws -> String? {
            let connection = try WireConnection(port: port)
            connection.setReadTimeout(milliseconds: 30_000)
            try connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let body = connection.responses(1).responses.first?.body ?? []
            return ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any])?["name"] as? String
        }
        #expect(try answeredBy("/test/name") == "lookd-loop")
        #expect(try answeredBy("/test/name-shared") == "lookd-shared")
        let held = try WireConnection(port: port)
        try held.send("GET /test/hold HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(started.wait(timeout: .now() + 30) == .success, "the shared worker took the held request")
        #expect(try answeredBy("/test/name-reserved") == "lookd-reserved")
        release.signal()
        held.setReadTimeout(milliseconds: 30_000)
        #expect(held.responses(1).responses.first?.status == 200)
    }

    @Test("a lint request stays on the shared-lane worker that took it: no Dispatch worker thread (at the process's priority) runs its checks")
    func lintStaysOnItsWorker() throws {
        let directory = try TemporaryDirectory()
        let daemon = try Daemon(data: directory.path + "/data")
        defer { daemon.stop() }
        // 8 catalogs: `lookd lint` checks them on Dispatch's threads at once; the daemon one after another on its worker.
        let tags = ["en", "de", "fr", "ja", "ar", "ru", "he", "es"]
        let body = LintRouteTests.body(try tags.map { ("\($0).json", try LintRouteTests.text($0)) })
        let answer = try daemon.request("POST", "/v1/lint", body: body)
        #expect(answer.status == 200)
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.pid)/task").map {
            ((try? String(contentsOfFile: "/proc/\(daemon.process.pid)/task/\($0)/comm", encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(names.filter { $0 == "lookd-shared" }.count >= 1)
        // libdispatch names its root-queue workers after the queue's label, cut to its last 15 bytes ("oot.default-qos",
        // "-qos.overcommit"); before the change the lint request above started two of them.
        #expect(names.filter { $0.hasSuffix("default-qos") || $0.hasSuffix("overcommit") }.isEmpty, "\(names)")
    }
}
