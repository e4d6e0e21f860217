import Locking
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `lookd-bench propagation`: how fast a publish reaches everything that must learn of it — 3 replicas over a
/// throw-away PostgreSQL, each with `--webhook` to a receiver in this process. Over 1,000 publishes (rotating over the
/// replicas): publish acknowledged → every replica serves the new version → the webhook received, p50 and p99. Then
/// the receiver goes down for PROPAGATION_DOWN_SECONDS (default 30; the 10 minutes is 600) while 100 more
/// publishes over 5 apps happen, comes back, and the suite checks that every event arrives, in order per app.
let propagationSuite = BenchmarkSuite(name: "propagation", onError: "skipped") { try PropagationBench.run() }

enum PropagationBench {
    static let publishes = Int(ProcessInfo.processInfo.environment["PROPAGATION_PUBLISHES"] ?? "") ?? 1_000
    static let downSeconds = Double(ProcessInfo.processInfo.environment["PROPAGATION_DOWN_SECONDS"] ?? "") ?? 30

    static func run() throws {
        let setup = try StoreBench.Setup(name: "propagation")
        let receiver = try Receiver()
        try Data("bench-webhook-secret-0123456789\n".utf8).write(to: URL(fileURLWithPath: setup.work + "/secret"))
        let extra = ["--webhook", "http://127.0.0.1:\(receiver.port)/hook", "--webhook-secret-file", setup.work + "/secret"]
        let replicas = try (0..<3).map { try setup.start("pg\($0)", setup.uri, extra) }
        let key = try StoreBench.appKey(setup.lookd)
        try StoreBench.publish(replicas[0], key, after: 0)
        guard receiver.waitFor(count: 1, seconds: 30) else { throw BenchError("the first webhook never arrived") }

        var served: [Double] = [], hooked: [Double] = [], acked: [Double] = []
        let clock = ContinuousClock()
        for version in 1...publishes {
            let began = clock.now
            try StoreBench.publish(replicas[version % 3], key, after: version)
            acked.append(seconds(clock.now - began) * 1000)
            var everywhere = false
            while !everywhere || receiver.count < version + 1 {
                if !everywhere {
                    everywhere = try replicas.allSatisfy { try StoreBench.servedVersion($0, key) == version + 1 }
                    if everywhere { served.append(seconds(clock.now - began) * 1000) }
                }
                guard seconds(clock.now - began) < 30 else { throw BenchError("v\(version + 1) not everywhere after 30 s") }
                if everywhere { _ = receiver.waitFor(count: version + 1, seconds: 30) }
            }
            hooked.append(seconds(receiver.arrival(count: version + 1) - began) * 1000)
        }
        func percentiles(_ values: [Double]) -> String {
            let sorted = values.sorted()
            return String(format: "p50 %.1f ms, p99 %.1f ms, max %.1f ms", sorted[sorted.count / 2], sorted[sorted.count * 99 / 100], sorted.last ?? 0)
        }
        print("\(publishes) publishes rotating over 3 PostgreSQL replicas, each timed from the publish request:")
        print("  publish acknowledged:            \(percentiles(acked))")
        print("  served by all 3 replicas:        \(percentiles(served))")
        print("  webhook received:                \(percentiles(hooked))   (target p99 < 1,000 ms)")

        // The receiver is down: publishes go on; when it is back every event arrives, in order per app.
        let before = receiver.count
        receiver.setDown(true)
        let apps = try (0..<5).map { _ in try StoreBench.appKey(setup.lookd) }
        let downBegan = clock.now
        for round in 0..<100 {
            try StoreBench.publish(replicas[round % 3], apps[round % 5], after: round / 5)
        }
        let remaining = downSeconds - seconds(clock.now - downBegan)
        if remaining > 0 { usleep(UInt32(remaining * 1_000_000)) }
        let arrivedWhileDown = receiver.count - before
        let back = clock.now
        receiver.setDown(false)
        guard receiver.waitFor(count: before + 100, seconds: 3_600) else {
            throw BenchError("only \(receiver.count - before) of 100 events arrived within an hour of the receiver's return")
        }
        let drained = seconds(receiver.arrival(count: before + 100) - back)
        var inOrder = true
        for app in apps {
            let versions = receiver.firstArrivals(appKey: app)
            inOrder = inOrder && versions == Array(1...20)
        }
        print(String(format: "receiver down %.0f s during 100 publishes over 5 apps (%d received while down), then back: all 100 delivered %.1f s after its return, %@; %d duplicate deliveries",
                     downSeconds, arrivedWhileDown, drained, inOrder ? "in order per app" : "OUT OF ORDER", receiver.duplicates))
    }

    /// A webhook receiver on a loopback port: records each request's app, version and Lookd-Delivery with its arrival
    /// time and answers 204; `setDown(true)` closes the listening socket (connections are refused) and every open
    /// connection (a request already on its way gets no answer) until `setDown(false)`.
    final class Receiver: @unchecked Sendable {
        private(set) var port: UInt16 = 0
        private let state = LockedValue<(arrivals: [(appKey: String, version: Int, delivery: String, at: ContinuousClock.Instant)], seen: Set<String>, duplicates: Int, listener: Int32, down: Bool, connections: Set<Int32>)>(([], [], 0, -1, false, []))
        private let changed = NSCondition()

        init() throws {
            try listen()
        }

        var count: Int { state.withLock { $0.seen.count } }
        var duplicates: Int { state.withLock { $0.duplicates } }

        /// When the `count`-th distinct delivery arrived.
        func arrival(count: Int) -> ContinuousClock.Instant {
            state.withLock { state in
                var seen = Set<String>()
                for arrival in state.arrivals where seen.insert(arrival.delivery).inserted && seen.count == count { return arrival.at }
                return state.arrivals.last?.at ?? ContinuousClock().now
            }
        }

        /// The app's versions in the order they first arrived.
        func firstArrivals(appKey: String) -> [Int] {
            state.withLock { state in
                var seen = Set<Int>(), order: [Int] = []
                for arrival in state.arrivals where arrival.appKey == appKey && seen.insert(arrival.version).inserted { order.append(arrival.version) }
                return order
            }
        }

        func waitFor(count: Int, seconds: Double) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            changed.lock()
            defer { changed.unlock() }
            while self.count < count {
                if !changed.wait(until: deadline) { return self.count >= count }
            }
            return true
        }

        func setDown(_ down: Bool) {
            if down {
                let (fd, open) = state.withLock { state in
                    defer { state.listener = -1; state.down = true }
                    return (state.listener, state.connections)
                }
                shutdown(fd, Int32(SHUT_RDWR))
                close(fd)
                // Keep-alive connections the deliverers already hold must go down too, or "down" is only for new ones.
                for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
            } else {
                state.withLock { $0.down = false }
                try? listen()
            }
        }

        private func listen() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            guard bound == 0, Glibc.listen(fd, 256) == 0 else {
                close(fd)
                throw BenchError("the bench receiver cannot listen on port \(port)")
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            port = UInt16(bigEndian: address.sin_port)
            state.withLock { $0.listener = fd }
            let thread = Thread { [self] in
                while true {
                    let connection = accept(fd, nil, nil)
                    if connection < 0 { return }
                    let worker = Thread { [self] in serve(connection) }
                    worker.start()
                }
            }
            thread.start()
        }

        private func serve(_ fd: Int32) {
            let admitted = state.withLock { state in
                if !state.down { state.connections.insert(fd) }
                return !state.down
            }
            defer {
                state.withLock { _ = $0.connections.remove(fd) }
                close(fd)
            }
            guard admitted else { return }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16384)
            while true {
                let marker: [UInt8] = [13, 10, 13, 10]
                var end: Int?
                while end == nil {
                    if buffer.count >= 4 { end = (0...(buffer.count - 4)).first { Array(buffer[$0..<($0 + 4)]) == marker } }
                    if end != nil { break }
                    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if count <= 0 { return }
                    buffer += chunk[0..<count]
                }
                let head = String(decoding: buffer[0..<end!], as: UTF8.self).lowercased()
                func field(_ name: String) -> String? {
                    head.components(separatedBy: "\r\n").first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
                }
                let length = Int(field("content-length") ?? "0") ?? 0
                while buffer.count < end! + 4 + length {
                    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if count <= 0 { return }
                    buffer += chunk[0..<count]
                }
                let body = Data(buffer[(end! + 4)..<(end! + 4 + length)])
                buffer.removeFirst(end! + 4 + length)
                let event = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
                let delivery = field("lookd-delivery") ?? ""
                let now = ContinuousClock().now
                let recorded = state.withLock { state in
                    guard !state.down else { return false }
                    state.arrivals.append((event["appKey"] as? String ?? "", event["version"] as? Int ?? 0, delivery, now))
                    if !state.seen.insert(delivery).inserted { state.duplicates += 1 }
                    return true
                }
                guard recorded else { return }   // down: the request is dropped unanswered, as by a dead receiver
                changed.lock()
                changed.broadcast()
                changed.unlock()
                let answer = Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)
                guard answer.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == answer.count else { return }
            }
        }
    }
}
