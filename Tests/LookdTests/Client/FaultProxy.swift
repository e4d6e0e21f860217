import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP proxy on 127.0.0.1 in front of a daemon, one request per connection, that answers each request
/// with the fault it is set to: forward it (the default), cut the answer mid-body with a reset, truncate it with
/// its real or a rewritten `Content-Length`, hold it until the client gives up, or send canned bytes. It records
/// every request head it reads. Stopped when released.
final class FaultProxy: @unchecked Sendable {
    enum Fault: Sendable {
        /// Forward to the daemon and relay its answer.
        case forward
        /// The daemon's answer, reset (RST) half-way through its body.
        case resetMidBody
        /// The daemon's answer cut half-way through its body, then closed; `rewriteLength` makes `Content-Length`
        /// match the cut (a well-framed but truncated body), else it keeps the full length.
        case truncated(rewriteLength: Bool)
        /// No answer: the connection is held until the client closes it (at most 20 s).
        case stall
        /// These bytes as the whole answer.
        case canned([UInt8])
        /// Forward, with the daemon's `Cache-Control` replaced by this value (a CDN or server set up otherwise).
        case cacheControl(String)
    }

    let port: UInt16
    private let upstream: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var fault: Fault = .forward
    private var heads: [String] = []
    private var lastOK: [UInt8]?
    /// Answers read whole from the daemon (to its close), and a signal for each.
    private var forwarded = 0
    private let answered = DispatchSemaphore(value: 0)
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)
    /// Tasks waiting for a number of requests, by a ticket: resumed by whoever removes them (an arrival or the timeout).
    private var waiters: [Int: (count: Int, continuation: CheckedContinuation<Bool, Never>)] = [:]
    private var nextTicket = 0

    init(upstream: UInt16) throws {
        self.upstream = upstream
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket failed") }
        listener = fd
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard let bound = bindLoopback(fd), listen(fd, 64) == 0 else {
            close(fd)
            throw HarnessError("proxy bind/listen failed")
        }
        port = bound
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    deinit { stop() }

    func set(_ fault: Fault) { lock.withLock { self.fault = fault } }

    /// The request heads read so far.
    var requests: [String] { lock.withLock { heads } }

    /// Waits until `count` answers have been read whole from the daemon — each to the end of its connection, which the
    /// daemon closed — or `seconds` pass. True when they have.
    func waitForAnswers(_ count: Int, seconds: Double) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while lock.withLock({ forwarded }) < count {
            if answered.wait(timeout: deadline) == .timedOut { return lock.withLock { forwarded } >= count }
        }
        return true
    }

    /// The last 200 the daemon answered through the proxy, whole.
    var lastOKResponse: [UInt8]? { lock.withLock { lastOK } }

    /// Suspends (never blocking a thread of the task pool) until `count` requests have arrived in all; false when
    /// that takes more than 20 s.
    func requestsArrived(_ count: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            let ticket: Int? = lock.withLock {
                if heads.count >= count { return nil }
                nextTicket += 1
                waiters[nextTicket] = (count, continuation)
                return nextTicket
            }
            guard let ticket else { return continuation.resume(returning: true) }
            // A bound on a wait that would otherwise hang the test, not a synchronisation.
            Task {
                try? await Task.sleep(nanoseconds: 20_000_000_000)
                self.lock.withLock { self.waiters.removeValue(forKey: ticket) }?.continuation.resume(returning: false)
            }
        }
    }

    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        _ = finished.wait(timeout: .now() + 25)
    }

    private func serve() {
        defer { finished.signal() }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if lock.withLock({ stopped }) { return }
                continue
            }
            handle(client)
        }
    }

    private func handle(_ client: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let head = readHead(client) else {
            close(client)
            return
        }
        let (fault, ready) = lock.withLock {
            heads.append(head)
            let ready = waiters.filter { $0.value.count <= heads.count }
            for ticket in ready.keys { waiters.removeValue(forKey: ticket) }
            return (self.fault, ready.values.map(\.continuation))
        }
        for continuation in ready { continuation.resume(returning: true) }
        switch fault {
        case .stall:
            var descriptor = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 20_000)
            close(client)
        case .canned(let bytes):
            send(client, bytes)
            close(client)
        case .forward, .resetMidBody, .truncated, .cacheControl:
            guard let answer = forward(head) else {
                close(client)
                return
            }
            lock.withLock { forwarded += 1 }
            answered.signal()
            let (responseHead, body) = split(answer)
            if responseHead.hasPrefix("HTTP/1.1 200") { lock.withLock { lastOK = answer } }
            switch fault {
            case .resetMidBody:
                send(client, Array(responseHead.utf8) + body.prefix(body.count / 2))
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            case .truncated(let rewrite):
                let cut = Array(body.prefix(body.count / 2))
                let head = rewrite ? responseHead.replacingOccurrences(of: "Content-Length: \(body.count)", with: "Content-Length: \(cut.count)") : responseHead
                send(client, Array(head.utf8) + cut)
            case .cacheControl(let value):
                let lines = responseHead.components(separatedBy: "\r\n").filter { !$0.lowercased().hasPrefix("cache-control:") && !$0.isEmpty }
                let head = ([lines[0], "Cache-Control: \(value)"] + lines.dropFirst()).joined(separator: "\r\n") + "\r\n\r\n"
                send(client, Array(head.utf8) + body)
            default:
                send(client, answer)
            }
            close(client)
        }
    }

    /// The request head, up to and including the blank line.
    private func readHead(_ fd: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            received += buffer[0..<count]
            if String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { return String(decoding: received, as: UTF8.self) }
        }
        return nil
    }

    /// The daemon's whole answer to `head`, sent with `Connection: close`.
    private func forward(_ head: String) -> [UInt8]? {
        let lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty && !$0.lowercased().hasPrefix("connection:") }
        let request = lines.joined(separator: "\r\n") + "\r\nConnection: close\r\n\r\n"
        guard let fd = try? connectLoopback(port: upstream) else { return nil }
        defer { close(fd) }
        send(fd, Array(request.utf8))
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return answer.isEmpty ? nil : answer
    }

    private func split(_ answer: [UInt8]) -> (String, [UInt8]) {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, answer.count - 3)).first(where: { Array(answer[$0..<$0 + 4]) == separator }) else {
            return (String(decoding: answer, as: UTF8.self), [])
        }
        return (String(decoding: answer[..<(end + 4)], as: UTF8.self), Array(answer[(end + 4)...]))
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }
}
