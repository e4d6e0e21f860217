import Foundation
import LookClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `lookd-bench client`: LookClient's cold start from its disk cache to a resolved look (read the file, decode the
/// answer, merge the app's layers, contrast included) against Foundation's `JSONDecoder` decoding the same bytes into
/// plain `Codable` structs (no merge), interleaved in the same run; and a 304 revalidation round trip against the
/// daemon on loopback (`refresh()`: a conditional GET, the cache file rewritten) against a bare URLSession
/// conditional GET. Needs the release `lookd` next to this binary.
let clientSuite = BenchmarkSuite(name: "client", onError: "stopped") { try ClientBench.run() }

enum ClientBench {
    static let rounds = 7
    static let perSlice = 300

    static func run() throws {
        let lookd = try HTTPBench.lookdBinary()
        let work = "/tmp/lookd-client-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let (daemon, port) = try startDaemon(lookd, work: work)
        defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }

        let key = try StoreBench.appKey(lookd)
        let published = try HTTPBench.request(port: port, "PUT /v1/apps/\(key)/look",
                                              headers: ["If-None-Match: *", "Content-Type: application/json", "Authorization: Bearer \(HTTPBench.token)"],
                                              body: Array(HTTPBench.benchLayer.utf8))
        guard published.status == 201 else { throw BenchError("publish answered \(published.status)") }
        let server = URL(string: "http://127.0.0.1:\(port)")!
        let cache = URL(fileURLWithPath: work + "/cache", isDirectory: true)
        let layers = AppLayers(code: CodeLayer(font: .serif, topics: [.idea], appName: "Ledgerly"), inferred: InferredLayer(hasBundleIcon: true))
        let first = wait { await LookClient(server: server, appKey: key, cache: cache, layers: layers).look(language: "de") }
        guard first.source == .network else { throw BenchError("the first fetch gave \(first.source): \(String(describing: first.error))") }
        let file = cache.appendingPathComponent("look-\(key)-de.cache")
        let stored = try Data(contentsOf: file)
        let body = stored.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)[2]
        print("cache file: \(stored.count) bytes (answer \(body.count) bytes); \(rounds) interleaved rounds of \(perSlice), medians")

        // Cold start, interleaved with the anchor.
        var ours: [Double] = [], anchor: [Double] = []
        for _ in 0..<rounds {
            ours.append(wait { await perOperation(perSlice) {
                let look = await LookClient(server: server, appKey: key, cache: cache, layers: layers).look(language: "de")
                precondition(look.source == .cache)
            } })
            anchor.append(perOperation(perSlice) {
                let data = try! Data(contentsOf: file)
                let body = data.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)[2]
                _ = try! JSONDecoder().decode(PlainFetch.self, from: Data(body))
            })
        }
        let cold = HTTPBench.median(ours), decode = HTTPBench.median(anchor)
        print(String(format: "cold start from the disk cache to a resolved look: %.1f µs   anchor: read + JSONDecoder into Codable structs: %.1f µs   ratio %.2f× (target ≤ 1.0×)",
                     cold, decode, cold / decode))

        // 304 round trips.
        let client = LookClient(server: server, appKey: key, cache: cache, layers: layers)
        _ = wait { await client.look(language: "de") }
        let session = URLSession(configuration: .ephemeral)
        var conditional = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/apps/\(key)/look?lang=de")!)
        conditional.setValue(etag(of: stored), forHTTPHeaderField: "If-None-Match")
        let request = conditional
        var revalidations: [Double] = [], bare: [Double] = []
        for _ in 0..<rounds {
            revalidations.append(wait { await perOperation(perSlice / 3) {
                let look = await client.refresh(language: "de")
                precondition(look.source == .cache && look.error == nil)
            } })
            bare.append(wait { await perOperation(perSlice / 3) {
                let status = await conditionalGet(session, request)
                precondition(status == 304)
            } })
        }
        let roundTrip = HTTPBench.median(revalidations), floor = HTTPBench.median(bare)
        print(String(format: "304 revalidation, refresh(): %.1f µs   anchor: bare URLSession conditional GET: %.1f µs   ratio %.2f×", roundTrip, floor, roundTrip / floor))
    }

    /// `lookd serve` on a free loopback port with its data and admin token in `work`.
    static func startDaemon(_ lookd: String, work: String) throws -> (Process, UInt16) {
        try Data(HTTPBench.token.utf8).write(to: URL(fileURLWithPath: work + "/token"))
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: lookd)
        daemon.arguments = ["serve", "--listen", "127.0.0.1:0", "--data", work + "/data", "--admin-token-file", work + "/token", "--access-log", "off", "--threads", "2"]
        let errorLog = work + "/lookd.err"
        _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
        daemon.standardError = FileHandle(forWritingAtPath: errorLog)
        daemon.standardOutput = FileHandle.nullDevice
        try daemon.run()
        do {
            return (daemon, try HTTPBench.waitForPort(errorLog, daemon))
        } catch {
            daemon.terminate()
            throw error
        }
    }

    /// The `etag` of a cache file's header.
    static func etag(of file: Data) -> String {
        let header = String(decoding: file.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)[1], as: UTF8.self)
        guard let start = header.range(of: "\"etag\":\"") else { return "" }
        let rest = header[start.upperBound...]
        var tag = "", escaped = false
        for character in rest {
            if escaped { tag.append(character); escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            if character == "\"" { break }
            tag.append(character)
        }
        return tag
    }

    static func conditionalGet(_ session: URLSession, _ request: URLRequest) async -> Int {
        await withCheckedContinuation { continuation in
            session.dataTask(with: request) { _, response, _ in
                continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? 0)
            }.resume()
        }
    }

    /// Microseconds per call of `body`, over `count` calls.
    static func perOperation(_ count: Int, _ body: () -> Void) -> Double {
        let clock = ContinuousClock(), start = clock.now
        for _ in 0..<count { body() }
        return seconds(clock.now - start) * 1e6 / Double(count)
    }

    static func perOperation(_ count: Int, _ body: () async -> Void) async -> Double {
        let clock = ContinuousClock(), start = clock.now
        for _ in 0..<count { await body() }
        return seconds(clock.now - start) * 1e6 / Double(count)
    }

    /// Runs `body` to completion from synchronous code.
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = ResultBox<T>(), done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }
}

/// Carries a task's result to the thread waiting for it (written before the semaphore is signalled).
final class ResultBox<T>: @unchecked Sendable { var value: T? }

// The anchor's model: the fetch answer as plain Codable structs, every member of the bench's answer.
struct PlainFetch: Codable {
    var appKey: String
    var dashboard: PlainValue
    var direction: String
    var locale: String
    var look: PlainLook
    var publishedAt: String
    var texts: PlainTexts
    var version: Int
}

/// A layer's values: strings, numbers, booleans, arrays and objects.
indirect enum PlainValue: Codable {
    case string(String), number(Double), bool(Bool), array([PlainValue]), object([String: PlainValue]), null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode([PlainValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: PlainValue].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

struct PlainField<Value: Codable>: Codable { var source: String; var value: Value }
struct PlainPair: Codable { var dark: String; var light: String }
struct PlainAdjustment: Codable {
    var adjusted, against, appearance: String
    var deltaEOK: Double
    var direction: String
    var hueShift, minimumRatio: Double
    var original: String
    var ratioAfter, ratioBefore: Double
    var role: String
}
struct PlainIcon: Codable { var kind: String; var letter: String?; var url: String? }
struct PlainCorners: Codable { var radius: Int; var source: String; var value: String }
struct PlainDiagnostic: Codable { var code, field, layer, message, severity: String }
struct PlainColors: Codable { var background, bubbleFill, bubbleText, secondaryText, teamBubbleFill, teamBubbleText, text, tint: String }
struct PlainPalette: Codable {
    struct Increased: Codable { var dark: PlainColors; var light: PlainColors }
    var dark: PlainColors
    var increasedContrast: Increased
    var light: PlainColors
}
struct PlainText: Codable { var catalogKey: String?; var localized: [String: String]?; var text: String? }
struct PlainTopic: Codable { var id: String; var label: PlainText; var prefill: PlainText?; var preset: String?; var symbol: String }
struct PlainLook: Codable {
    var accent: PlainField<PlainPair>
    var adjustments: [PlainAdjustment]
    var appIcon: PlainField<PlainIcon>
    var appName: PlainField<String?>
    var branding: PlainField<Bool>
    var corners: PlainCorners
    var diagnostics: [PlainDiagnostic]
    var font: PlainField<String>
    var headerStyle: PlainField<String>
    var palette: PlainPalette
    var replyExpectation: PlainField<PlainText>
    var schema: Int
    var topics: PlainField<[PlainTopic]>
}
struct PlainTexts: Codable {
    struct Topic: Codable { var id: String; var label: String; var prefill: String? }
    var replyExpectation: String
    var topics: [Topic]
}
