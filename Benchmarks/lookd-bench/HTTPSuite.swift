import CeilingServer
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `lookd-bench http`: wrk against lookd's SDK fetch (`GET /v1/apps/{appKey}/look?lang=de`) and, in the same run,
/// nginx tuned as a CDN origin serving the very same bytes as a static file (2 workers, `listen … reuseport deferred`,
/// sendfile, tcp_nodelay, open_file_cache, access_log off; the file under /tmp, readable by nginx's worker user).
/// nginx must answer 200 with identical bytes before anything is measured.
///
/// Scenarios, each `wrk -t2 -c64`, interleaved lookd, nginx, lookd, nginx… and reported as medians with p99:
/// keep-alive, `Connection: close` (a new connection per request), 304 revalidation (`If-None-Match`, each server's
/// own ETag); the same three with `Accept-Encoding: br` and with `gzip` (nginx serving `.br` and `.gz` files made by
/// `brotli -q 11` and `gzip -9` through brotli_static and gzip_static, both checked to answer 200 with the same
/// Content-Encoding and bytes that decode to the identity body), with each side's bytes on the wire for one response,
/// and lookd's own histogram p99 beside wrk's; then 1,000 connections; then the spread: a wrk Lua script sending every
/// pair of 3,000 apps × 50 languages, in an order shuffled for each thread — a cold first pass, then two more — against
/// the same script pinned to one app and language, interleaved.
/// Needs `wrk` and `nginx` (`make bench` installs them) and the release `lookd` next to this binary.
let httpSuite = BenchmarkSuite(name: "http", onError: "stopped") { try HTTPBench.run() }

enum HTTPBench {
    static let apps = 3_000
    static let connections = 64
    static let wrkSeconds = Int(ProcessInfo.processInfo.environment["HTTP_BENCH_SECONDS"] ?? "") ?? 8
    static let rounds = Int(ProcessInfo.processInfo.environment["HTTP_BENCH_ROUNDS"] ?? "") ?? 3
    /// `HTTP_BENCH_SCENARIOS=keep-alive;keep-alive, routes`: only the scenarios named (separated by `;`); the
    /// 1,000-connection and spread runs only when named too (`keep-alive, 1,000 connections`, `spread`); unset, everything.
    static let only: Set<String>? = ProcessInfo.processInfo.environment["HTTP_BENCH_SCENARIOS"].map { Set($0.split(separator: ";").map(String.init)) }
    /// `HTTP_BENCH_PREFILL=off`: lookd runs with `--no-prefill`, so the spread's cold first pass fills each app version
    /// itself on its first fetch (as a daemon restarted with `--no-prefill` would); unset, a publish prefills (the default).
    static let prefill = ProcessInfo.processInfo.environment["HTTP_BENCH_PREFILL"] != "off"
    /// lookd runs as docs/deployment.md ("Memory") advises for a large response cache: glibc's heap on transparent huge
    /// pages (`GLIBC_TUNABLES`, set for the daemon only). `HTTP_BENCH_HUGE_PAGES=off`: glibc's default heap.
    static let hugePages = ProcessInfo.processInfo.environment["HTTP_BENCH_HUGE_PAGES"] != "off"
    static let hugePageTunables = "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864"
    static let token = "bench-admin-token-5d1c0e9a77"
    static let languages = ["ar", "bn", "bg", "ca", "zh-Hans", "zh-Hant", "zh-HK", "hr", "cs", "da", "nl", "en", "fi", "fr", "fr-CA", "de",
                            "el", "gu", "he", "hi", "hu", "id", "it", "ja", "kn", "ko", "ms", "ml", "mr", "nb", "or", "fa", "pl", "pt-BR",
                            "pt-PT", "pa", "ro", "ru", "sk", "sl", "es", "es-419", "sv", "ta", "te", "th", "tr", "uk", "ur", "vi"]

    static func run() throws {
        let wrk = try which("wrk")
        let nginx = try which("nginx", extra: ["/usr/sbin/nginx"])
        let lookd = try lookdBinary()
        // Under /tmp, world-readable: nginx's workers run as an unprivileged user (files under /root answer 403).
        let work = "/tmp/lookd-http-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: work) }
        try Data(token.utf8).write(to: URL(fileURLWithPath: work + "/token"))

        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: lookd)
        // --no-purge-keys: devices reach this lookd directly, as they reach nginx; behind a CDN the purge keys (on by
        // default, 110-odd bytes) are stripped before the device anyway (docs/http-api.md, "Purge keys").
        daemon.arguments = ["serve", "--listen", "127.0.0.1:0", "--data", work + "/data", "--admin-token-file", work + "/token",
                            "--access-log", "off", "--threads", "2", "--max-connections", "4096", "--max-connections-per-ip", "4096",
                            "--no-purge-keys"] + (prefill ? [] : ["--no-prefill"])
        let errorLog = work + "/lookd.err"
        _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
        daemon.standardError = FileHandle(forWritingAtPath: errorLog)
        daemon.standardOutput = FileHandle.nullDevice
        if hugePages {
            var environment = ProcessInfo.processInfo.environment
            environment["GLIBC_TUNABLES"] = hugePageTunables
            daemon.environment = environment
        }
        try daemon.run()
        defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }
        let port = try waitForPort(errorLog, daemon)
        let keys = try publishApps(lookd: lookd, port: port)
        let rssStored = rss(daemon.processIdentifier)

        // The exact bytes the SDK gets, served by nginx as a static file.
        let target = "/v1/apps/\(keys[0])/look?lang=de"
        let sample = try request(port: port, "GET \(target)", headers: [], body: nil)
        guard sample.status == 200 else { throw BenchError("fetch answered \(sample.status)") }
        let nginxPort = try startNginx(nginx, work: work, body: sample.body)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: nginx)
        server.arguments = ["-c", work + "/nginx.conf", "-p", work]
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate(); server.waitUntilExit() } }
        var check = Answer(status: 0, body: [], etag: nil)
        for _ in 0..<100 where check.status != 200 {
            check = (try? request(port: nginxPort, "GET /look.json", headers: [], body: nil)) ?? check
            if check.status != 200 { usleep(20_000) }
        }
        guard check.status == 200, check.body == sample.body else {
            throw BenchError("nginx answered \(check.status) with \(check.body.count) bytes, not 200 with the \(sample.body.count) bytes lookd serves")
        }
        guard let lookdTag = sample.etag, let nginxTag = check.etag else { throw BenchError("no ETag to revalidate with") }
        // Each coding: both answer 200 with the same Content-Encoding, and both bodies decode (by the brotli and gzip
        // programs) to the identity bytes. Their tags are what the 304 scenarios revalidate.
        var coded: [(coding: String, lookdTag: String, nginxTag: String)] = []
        print("bytes on the wire for one response (status line, fields, body; Connection: close):")
        print("  identity  lookd \(sample.wireBytes)  nginx \(check.wireBytes)")
        for coding in ["br", "gzip"] {
            let ours = try request(port: port, "GET \(target)", headers: ["Accept-Encoding: \(coding)"], body: nil)
            let theirs = try request(port: nginxPort, "GET /look.json", headers: ["Accept-Encoding: \(coding)"], body: nil)
            for (name, answer) in [("lookd", ours), ("nginx", theirs)] {
                guard answer.status == 200, answer.fields["content-encoding"] == coding else {
                    throw BenchError("\(name) answered \(answer.status) with Content-Encoding \(answer.fields["content-encoding"] ?? "none") to Accept-Encoding: \(coding)")
                }
                guard try runTool(coding == "br" ? "brotli" : "gzip", ["-d", "-c"], input: answer.body) == sample.body else {
                    throw BenchError("\(name)'s \(coding) body does not decode to the identity bytes")
                }
            }
            guard let ourTag = ours.etag, let theirTag = theirs.etag else { throw BenchError("no ETag for \(coding)") }
            coded.append((coding, ourTag, theirTag))
            print("  \(coding.padding(toLength: 8, withPad: " ", startingAt: 0))  lookd \(ours.wireBytes) (body \(ours.body.count))  nginx \(theirs.wireBytes) (body \(theirs.body.count))  "
                  + String(format: "lookd/nginx %.2f×", Double(ours.wireBytes) / Double(theirs.wireBytes)))
        }
        do {
            try measure(wrk, port: port, target: target, nginxPort: nginxPort, tags: (lookdTag, nginxTag), coded: coded, keys: keys, work: work,
                        daemon: daemon, sample: sample)
        } catch {
            let log = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            print("lookd \(daemon.isRunning ? "is running" : "exited with \(daemon.terminationStatus) (reason \(daemon.terminationReason.rawValue))"); its log:\n\(log.suffix(2000))")
            throw error
        }
        print("lookd RSS: \(rssStored / 1024) MB with \(apps) apps stored; \(rss(daemon.processIdentifier) / 1024) MB after the runs")
    }

    static func measure(_ wrk: String, port: UInt16, target: String, nginxPort: UInt16, tags: (String, String),
                        coded: [(coding: String, lookdTag: String, nginxTag: String)], keys: [String], work: String,
                        daemon: Process, sample: Answer) throws {
        let (lookdTag, nginxTag) = tags
        let lookdURL = "http://127.0.0.1:\(port)\(target)"
        let nginxURL = "http://127.0.0.1:\(nginxPort)/look.json"

        print("body: \(sample.body.count) bytes, nginx serves the same bytes with 200; wrk -t2 -c\(connections) -d\(wrkSeconds)s --latency, \(rounds) interleaved rounds, medians")
        print("servers: lookd --threads 2 (2 loops + workers)" + (hugePages ? ", GLIBC_TUNABLES=\(hugePageTunables)" : "") + "; nginx worker_processes 2, reuseport, deferred accept, sendfile, tcp_nodelay, open_file_cache; access logs off")
        var scenarios: [(name: String, lookd: [String], nginx: [String])] = [
            ("keep-alive", [], []),
            // The same bytes through the routes (Swift: the look cache's prepared response), not the engine's response
            // cache: the language comes from Accept-Language, which the engine's entries never answer.
            ("keep-alive, routes", ["-H", "Accept-Language: de"], []),
            ("Connection: close", ["-H", "Connection: close"], ["-H", "Connection: close"]),
            ("304 (If-None-Match)", ["-H", "If-None-Match: \(lookdTag)"], ["-H", "If-None-Match: \(nginxTag)"]),
        ]
        for (coding, ourTag, theirTag) in coded {
            let accept = ["-H", "Accept-Encoding: \(coding)"]
            scenarios += [
                ("keep-alive, \(coding)", accept, accept),
                ("Connection: close, \(coding)", accept + ["-H", "Connection: close"], accept + ["-H", "Connection: close"]),
                ("304, \(coding)", accept + ["-H", "If-None-Match: \(ourTag)"], accept + ["-H", "If-None-Match: \(theirTag)"]),
            ]
        }
        // The machine's ceiling: a minimal C epoll server (one loop per core, SO_REUSEPORT) answering the same body with a
        // head of the same fields, measured in the keep-alive rounds.
        let ceilingPort = try startCeiling(sample: sample)
        defer { ceiling_stop() }
        var ceiling: [WrkResult] = []
        for scenario in scenarios where only?.contains(scenario.name) ?? true {
            var ours: [WrkResult] = [], theirs: [WrkResult] = []
            var histogram: [UInt64] = []
            for _ in 0..<rounds {
                let before = try durationHistogram(port: port)
                // The routes' scenario asks without ?lang= (Accept-Language instead): the same bytes, never the engine's cache.
                let url = scenario.name == "keep-alive, routes" ? String(lookdURL.prefix(while: { $0 != "?" })) : lookdURL
                ours.append(try runWrk(wrk, url, scenario.lookd))
                let after = try durationHistogram(port: port)
                histogram = zip(after, before).map { $0 - $1 }.enumerated().map { $0.element + (histogram.count > $0.offset ? histogram[$0.offset] : 0) }
                theirs.append(try runWrk(wrk, nginxURL, scenario.nginx))
                if scenario.name == "keep-alive" { ceiling.append(try runWrk(wrk, "http://127.0.0.1:\(ceilingPort)/", [])) }
            }
            report(scenario.name, ours, theirs)
            print("  lookd's own histogram (every round's requests): p99 \(histogramP99(histogram)); wrk's p99 \(ours.map(\.p99).joined(separator: "/"))")
            if scenario.name == "keep-alive" {
                let limit = median(ceiling.map(\.rate))
                print("  the machine's ceiling (minimal C epoll server, same bytes): \(formatRate(limit)) p99 \(ceiling.map(\.p99).joined(separator: "/"))   "
                      + String(format: "lookd keep-alive %.2f× of it (target ≥ 0.9×)", median(ours.map(\.rate)) / limit))
            }
        }
        var ours: [WrkResult] = [], theirs: [WrkResult] = []
        if only?.contains("keep-alive, 1,000 connections") ?? true {
            for _ in 0..<2 {
                ours.append(try runWrk(wrk, lookdURL, [], connections: 1000))
                theirs.append(try runWrk(wrk, nginxURL, [], connections: 1000))
            }
            report("keep-alive, 1,000 connections", ours, theirs)
        }
        guard only?.contains("spread") ?? true else { return }

        // The spread: 3,000 apps × 50 languages, each pair once in a shuffled order and again (the default cache holds all
        // 150,000 responses, about 100 MB; each publish prefilled its version's, unless HTTP_BENCH_PREFILL=off, when each
        // app's first fetch fills them), against the same script sending one app and language as often.
        try keys.joined(separator: "\n").write(toFile: work + "/keys.txt", atomically: true, encoding: .utf8)
        try keys[0].write(toFile: work + "/key.txt", atomically: true, encoding: .utf8)
        try languages.joined(separator: "\n").write(toFile: work + "/langs.txt", atomically: true, encoding: .utf8)
        try "de".write(toFile: work + "/lang.txt", atomically: true, encoding: .utf8)
        let pairs = keys.count * languages.count
        try luaScript(keys: work + "/keys.txt", languages: work + "/langs.txt", count: pairs, marker: work + "/spread.started")
            .write(toFile: work + "/spread.lua", atomically: true, encoding: .utf8)
        try luaScript(keys: work + "/key.txt", languages: work + "/lang.txt", count: pairs, marker: work + "/pinned.started")
            .write(toFile: work + "/pinned.lua", atomically: true, encoding: .utf8)
        // The first pass is cold: every one of the 150,000 (app, language) pairs is requested for the first time since the
        // daemon started (each thread sends them all before sending one again), so with --no-prefill
        // each first request builds its language on the Swift path; with prefill (the default) each publish put its
        // version's languages in the response cache, unread since. The next passes find them there (every language of an
        // app sharing its version's bytes). Pinned runs interleave with both.
        let heldBefore = responseCacheHeld(port: port)
        let cold = try runWrk(wrk, "http://127.0.0.1:\(port)/", ["-s", work + "/spread.lua"])
        var spread: [WrkResult] = [], pinned: [WrkResult] = []
        pinned.append(try runWrk(wrk, "http://127.0.0.1:\(port)/", ["-s", work + "/pinned.lua"]))
        for _ in 0..<2 {
            spread.append(try runWrk(wrk, "http://127.0.0.1:\(port)/", ["-s", work + "/spread.lua"]))
            pinned.append(try runWrk(wrk, "http://127.0.0.1:\(port)/", ["-s", work + "/pinned.lua"]))
        }
        let spreadRate = median(spread.map(\.rate)), pinnedRate = median(pinned.map(\.rate))
        print("spread: \(apps) apps × \(languages.count) languages, each pair once a pass, shuffled for each thread; pinned: the same script on one app and language")
        print("  pinned to one                  \(formatRate(pinnedRate)) p99 \(pinned.map(\.p99).joined(separator: "/"))")
        print("  spread, first pass (cold)      \(formatRate(cold.rate)) p99 \(cold.p99)   "
              + String(format: "ratio %.2f× of pinned (target ≥ 0.9×; ", cold.rate / pinnedRate)
              + (prefill ? "each version's languages prefilled by its publish)" : "each pair's first request builds its language)"))
        print("  spread, next passes            \(formatRate(spreadRate)) p99 \(spread.map(\.p99).joined(separator: "/"))   "
              + String(format: "ratio %.2f× of pinned (target ≥ 0.9×)", spreadRate / pinnedRate))
        print("  response cache before the first pass: \(heldBefore); after the passes: \(responseCacheHeld(port: port))")
        spread.append(cold)
        let errors = (ours + theirs + spread + pinned).map(\.errors).reduce(0, +)
        if errors > 0 { print("wrk socket errors / non-2xx-3xx responses: \(errors)") }
    }

    /// The response cache's gauges and the look cache's counters from lookd's /metrics (`lookd_response_cache_entries N,
    /// lookd_response_cache_bytes N, lookd_look_cache_hits_total N, lookd_look_cache_misses_total N`: the last two count
    /// the fetches the routes answered, not the engine).
    static func responseCacheHeld(port: UInt16) -> String {
        let table = (try? request(port: port, "GET /metrics", headers: [], body: nil)).map { String(decoding: $0.body, as: UTF8.self) } ?? ""
        return table.split(separator: "\n").filter {
            $0.hasPrefix("lookd_response_cache_") || $0.hasPrefix("lookd_look_cache_hits_total") || $0.hasPrefix("lookd_look_cache_misses_total")
        }.joined(separator: ", ")
    }

    /// The dashboard layer every bench app publishes: every field a team sets, a localized text and a topic of its own.
    static let benchLayer = ##"{"accent":{"light":"#FF6A00","dark":"#FF9F0A"},"appName":"Ledgerly","corners":"soft","font":"rounded","headerStyle":"team","replyExpectation":{"en":"Usually replies within an hour","de":"Antwortet meist innerhalb einer Stunde"},"topics":["billing","bug",{"id":"export","label":{"en":"Exports","de":"Exporte"},"symbol":"square.and.arrow.up","prefill":"I need help exporting my data."}]}"##

    /// Publishes `apps` new apps (one layer each, every publish fsynced before its 201) and returns their keys.
    static func publishApps(lookd: String, port: UInt16) throws -> [String] {
        let keygen = Process()
        keygen.executableURL = URL(fileURLWithPath: lookd)
        keygen.arguments = ["keygen", "--count", String(apps)]
        let pipe = Pipe()
        keygen.standardOutput = pipe
        try keygen.run()
        let keys = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
        keygen.waitUntilExit()
        guard keys.count == apps else { throw BenchError("keygen gave \(keys.count) keys") }
        let layer = Array(benchLayer.utf8)
        let clock = ContinuousClock()
        let start = clock.now
        let failures = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in stride(from: worker, to: keys.count, by: 8) {
                let status = (try? request(port: port, "PUT /v1/apps/\(keys[index])/look", headers: ["If-None-Match: *", "Content-Type: application/json", "Authorization: Bearer \(token)"], body: layer).status) ?? 0
                if status != 201 { failures.increment() }
            }
        }
        let publishSeconds = seconds(clock.now - start)
        guard failures.value == 0 else { throw BenchError("\(failures.value) publishes failed") }
        print("published \(apps) apps in \(String(format: "%.1f", publishSeconds)) s (\(Int(Double(apps) / publishSeconds))/s, each fsynced before its 201; "
              + (prefill ? "each version's languages prefilled after its answer)" : "--no-prefill: nothing prefilled)"))
        return keys
    }

    /// Runs a program found on PATH (or /usr/bin) to its end; throws when it fails. Returns its standard output.
    @discardableResult
    static func runTool(_ name: String, _ arguments: [String], input: [UInt8]? = nil) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try which(name, extra: ["/usr/bin/" + name]))
        process.arguments = arguments
        let output = Pipe(), inputPipe = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        if input != nil { process.standardInput = inputPipe }
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(Data(input))
            try inputPipe.fileHandleForWriting.close()
        }
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("\(name) \(arguments) exited with \(process.terminationStatus)") }
        return Array(bytes)
    }

    /// Writes `body` as `www/look.json` (and its `.br` and `.gz` forms) and the tuned nginx configuration; returns nginx's port.
    static func startNginx(_ nginx: String, work: String, body: [UInt8]) throws -> UInt16 {
        let root = work + "/www"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try Data(body).write(to: URL(fileURLWithPath: root + "/look.json"))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: root + "/look.json")
        let nginxPort = try freePort()
        // nginx at its best with compression: the same body pre-compressed by the reference tools at their highest
        // settings, served by brotli_static and gzip_static.
        try runTool("brotli", ["-q", "11", "-f", "-k", root + "/look.json"])
        try runTool("gzip", ["-9", "-n", "-f", "-k", root + "/look.json"])
        for file in ["look.json.br", "look.json.gz"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: root + "/" + file)
        }
        let config = """
            load_module /usr/lib/nginx/modules/ngx_http_brotli_static_module.so;
            worker_processes 2;
            daemon off;
            pid \(work)/nginx.pid;
            error_log \(work)/nginx.err warn;
            events { worker_connections 4096; }
            http {
                access_log off;
                sendfile on;
                tcp_nodelay on;
                keepalive_requests 1000000;
                open_file_cache max=1000 inactive=60s;
                open_file_cache_valid 60s;
                client_body_temp_path \(work)/nginx-body;
                proxy_temp_path \(work)/nginx-proxy;
                fastcgi_temp_path \(work)/nginx-fastcgi;
                uwsgi_temp_path \(work)/nginx-uwsgi;
                scgi_temp_path \(work)/nginx-scgi;
                server {
                    listen 127.0.0.1:\(nginxPort) reuseport deferred;
                    location / { root \(root); default_type application/json; etag on; brotli_static on; gzip_static on; gzip_vary on; }
                }
            }
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: work + "/nginx.conf"))
        return nginxPort
    }

    /// A wrk script (for `wrk -t2`) sending `count` requests for the keys × languages of two files of lines (each pair
    /// once when `count` is their product; one pair `count` times when the files hold one line each), in an order
    /// shuffled for each thread (its own seed), again from the start when the thread has sent them all. `marker`: a path
    /// the script uses to start both threads together.
    ///
    /// Every request is written in `init`, before the thread's first request, so that sending one costs wrk the same
    /// table read whatever the pair. Written in `request` instead (a new path and request text each time), wrk's CPU a
    /// request was 0.4–3.0 µs higher spread than pinned (median 1.2, six pairs: LuaJIT interns every string, so a pinned
    /// request's text is found in its string table and a spread one is hashed, allocated and collected), and wrk runs on
    /// the same two cores as lookd, so the spread's ratio counted wrk's strings against lookd (docs/benchmarks.md, run
    /// AA). One concatenation a request around `wrk.format`'s text, not `wrk.format` itself: a thread's 150,000 in
    /// 0.24–0.43 s instead of 0.63–1.05 s.
    ///
    /// wrk counts each thread's responses from the thread's start but its time from the last thread's creation, after
    /// every thread's `init`; the spread's `init` takes 0.2–0.4 s longer than the pinned one's, so the first thread's
    /// requests in that time raised the spread's rate alone. The first thread therefore sends nothing until the second
    /// has written its requests and made `marker` (its first `request` call, which wrk makes to check the request
    /// before creating the threads, returns at once). Seeded alike (`os.time()` alone), the two threads sent the same
    /// pairs in the same order, the second finding in the CPU's caches what the first had just read.
    static func luaScript(keys: String, languages: String, count: Int, marker: String) -> String {
        """
        local requests, sent, checked, started = {}, 0, false, false
        local threads = 0
        function setup(thread)
          threads = threads + 1
          thread:set("index", threads)
        end
        function init(args)
          if index == 1 then os.remove("\(marker)") end
          local keys, languages, order = {}, {}, {}
          for line in io.lines("\(keys)") do keys[#keys + 1] = line end
          for line in io.lines("\(languages)") do languages[#languages + 1] = line end
          for i = 0, \(count) - 1 do order[i + 1] = i % (#keys * #languages) end
          math.randomseed(os.time() + 7919 * index)
          for i = #order, 2, -1 do local j = math.random(i); order[i], order[j] = order[j], order[i] end
          local text = wrk.format("GET", "/")
          local before, after = text:sub(1, 4), text:sub(6)
          for i = 1, #order do
            local key, language = keys[math.floor(order[i] / #languages) + 1], languages[order[i] % #languages + 1]
            requests[i] = before .. "/v1/apps/" .. key .. "/look?lang=" .. language .. after
          end
          if index == 2 then io.open("\(marker)", "w"):close() end
        end
        request = function()
          if not checked then
            checked = true
          elseif not started then
            local deadline, file = os.time() + 30, io.open("\(marker)")
            while not file and os.time() < deadline do os.execute("sleep 0.01"); file = io.open("\(marker)") end
            if file then file:close() end
            started = true
          end
          sent = sent % #requests + 1
          return requests[sent]
        end
        """
    }

    static func report(_ name: String, _ ours: [WrkResult], _ theirs: [WrkResult]) {
        let lookdRate = median(ours.map(\.rate)), nginxRate = median(theirs.map(\.rate))
        let padded = name.padding(toLength: 30, withPad: " ", startingAt: 0)
        let p99 = median(ours.map(\.p99Milliseconds))
        print("\(padded) lookd \(formatRate(lookdRate)) p99 \(ours.map(\.p99).joined(separator: "/"))   nginx \(formatRate(nginxRate)) p99 \(theirs.map(\.p99).joined(separator: "/"))   "
              + String(format: "ratio %.2f× (target ≥ 1.0×); lookd's median p99 %.2f ms", lookdRate / nginxRate, p99)
              + (connectionsOf(name) == 64 ? (p99 < 5 ? " (target < 5 ms ✓)" : " (target < 5 ms ✗)") : ""))
    }

    /// lookd's `lookd_http_request_duration_seconds` cumulative bucket counts, from /metrics (the /metrics request itself
    /// is counted in the next read; one request against a run's hundreds of thousands).
    static func durationHistogram(port: UInt16) throws -> [UInt64] {
        let text = String(decoding: try request(port: port, "GET /metrics", headers: [], body: nil).body, as: UTF8.self)
        return text.split(separator: "\n").filter { $0.hasPrefix("lookd_http_request_duration_seconds_bucket") }
            .compactMap { $0.split(separator: " ").last.flatMap { UInt64($0) } }
    }

    /// The bucket holding the 99th percentile of cumulative bucket counts (the bounds of Metrics.buckets), as text.
    static func histogramP99(_ cumulative: [UInt64]) -> String {
        let bounds = [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500]   // milliseconds
        guard let total = cumulative.last, total > 0, cumulative.count == bounds.count + 1 else { return "?" }
        let rank = UInt64((Double(total) * 0.99).rounded(.up))
        guard let index = cumulative.firstIndex(where: { $0 >= rank }) else { return "?" }
        let low = index == 0 ? 0 : bounds[index - 1]
        return index < bounds.count ? "in (\(low), \(bounds[index])] ms" : "above \(low) ms"
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    struct WrkResult {
        var rate: Double
        var p99: String
        var errors: Int

        /// wrk's p99 (`850.00us`, `6.31ms`, `1.02s`) in milliseconds.
        var p99Milliseconds: Double {
            for (suffix, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where p99.hasSuffix(suffix) {
                return (Double(p99.dropLast(suffix.count)) ?? .nan) * scale
            }
            return .nan
        }
    }

    /// The connections a scenario of `report` ran with (its name says when they are not the default 64).
    static func connectionsOf(_ name: String) -> Int { name.contains("1,000 connections") ? 1_000 : connections }

    /// Starts the ceiling server with lookd's body behind a head of the same fields and sizes; returns its port.
    static func startCeiling(sample: Answer) throws -> UInt16 {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: \(sample.etag ?? "\"x\"")\r\n"
            + "Vary: Accept-Encoding, Lookd-Preview\r\nCache-Control: max-age=30,stale-while-revalidate=60\r\n"
            + "Content-Length: \(sample.body.count)\r\nDate: Wed, 02 Dec 2026 00:00:00 GMT\r\n\r\n"
        let response = Array(head.utf8) + sample.body
        var port: UInt16 = 0
        guard ceiling_start(response, response.count, 2, &port) == 0 else { throw BenchError("the ceiling server did not start") }
        return port
    }

    static func runWrk(_ wrk: String, _ url: String, _ extra: [String], connections: Int = connections) throws -> WrkResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t2", "-c\(connections)", "-d\(wrkSeconds)s", "--latency"] + extra + [url]
        let pipe = Pipe(), standardError = Pipe()
        process.standardOutput = pipe
        process.standardError = standardError
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            + String(decoding: standardError.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var rate = 0.0, p99 = "?", errors = 0
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.contains("Requests/sec:"), let value = fields.last.flatMap({ Double($0) }) { rate = value }
            if fields.first == "99%", fields.count >= 2 { p99 = String(fields[1]) }
            if line.contains("Non-2xx"), let value = fields.last.flatMap({ Int($0) }) { errors += value }
            if line.contains("Socket errors") { errors += line.split(separator: ",").compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +) }
        }
        guard rate > 0 else { throw BenchError("wrk \(process.arguments ?? []) printed no rate:\n\(output)") }
        return WrkResult(rate: rate, p99: p99, errors: errors)
    }

    /// Resident set size in KB (/proc/PID/status VmRSS).
    static func rss(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }

    /// The release `lookd` next to this binary.
    static func lookdBinary() throws -> String {
        let lookd = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("lookd").path
        guard FileManager.default.isExecutableFile(atPath: lookd) else { throw BenchError("no lookd next to lookd-bench (\(lookd))") }
        return lookd
    }

    static func which(_ name: String, extra: [String] = []) throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" } + extra
        guard let found = path.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BenchError("\(name) is not installed (make bench installs it)")
        }
        return found
    }

    static func waitForPort(_ log: String, _ process: Process) throws -> UInt16 {
        for _ in 0..<500 {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on http://127.0.0.1:"), let port = UInt16(text[range.upperBound...].prefix(while: \.isNumber)) {
                return port
            }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        throw BenchError("lookd did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }

    /// A free loopback port (bound and released; the small race is harmless for a benchmark).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw BenchError("no free port") }
        return UInt16(bigEndian: address.sin_port)
    }

    struct Answer {
        var status: Int
        var body: [UInt8]
        var etag: String?
        /// Header fields by lower-cased name (the last when repeated).
        var fields: [String: String] = [:]
        /// Every byte of the response as it came off the socket: status line, fields and body.
        var wireBytes = 0
    }

    /// One request over a fresh connection (`Connection: close`); reads to EOF, each read waiting at most 10 s (a server
    /// that never answers stops the suite with "no response" instead of hanging it).
    static func request(port: UInt16, _ line: String, headers: [String], body: [UInt8]?) throws -> Answer {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw BenchError("connect") }
        var head = "\(line) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + (body ?? [])
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        guard let end = (0..<max(0, received.count - 3)).first(where: { received[$0] == 13 && received[$0 + 1] == 10 && received[$0 + 2] == 13 && received[$0 + 3] == 10 }) else {
            throw BenchError("no response")
        }
        let lines = String(decoding: received[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ")
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0, body: Array(received[(end + 4)...]), etag: fields["etag"],
                      fields: fields, wireBytes: received.count)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A tiny thread-safe counter for the publishing workers.
final class Atomic: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int
    init(_ count: Int) { self.count = count }
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
