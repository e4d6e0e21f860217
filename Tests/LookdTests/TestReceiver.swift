import Locking
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A webhook receiver on a loopback port for the tests: one thread per connection, every read with a timeout. Each
/// request is recorded, then answered as `behaviour` says for that request's number (0-based, over all requests).
final class TestReceiver: @unchecked Sendable {
    /// What the receiver does with one request.
    enum Behaviour: Sendable {
        case status(Int)
        /// Closes the connection without answering.
        case close
        /// Answers `status` only once `release()` is called (or the client gives up first).
        case hold(Int)
    }

    struct Received: Sendable {
        var headers: [String: String]
        var body: [UInt8]
        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]) ?? [:] }
        var seq: Int { json["seq"] as? Int ?? -1 }
        var appKey: String { json["appKey"] as? String ?? "" }
    }

    let port: UInt16
    private let listener: Int32
    private let state = LockedValue<(received: [Received], stopped: Bool, released: Bool)>(([], false, false))
    private let behaviour: @Sendable (Int) -> Behaviour
    private let changed = NSCondition()

    init(behaviour: @escaping @Sendable (Int) -> Behaviour = { _ in .status(200) }) throws {
        self.behaviour = behaviour
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(listener, 64) == 0 else { throw HarnessError("the test receiver cannot listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    var url: String { "http://127.0.0.1:\(port)/hook" }

    var received: [Received] { state.withLock { $0.received } }

    /// Lets held requests answer.
    func release() {
        state.withLock { $0.released = true }
        signal()
    }

    /// Stops accepting (the port then refuses connections).
    func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
        release()
    }

    /// Waits until `condition` holds for the requests received, at most `seconds`. Returns whether it held.
    @discardableResult
    func wait(seconds: Double = 60, until condition: ([Received]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        changed.lock()
        defer { changed.unlock() }
        while !condition(received) {
            if !changed.wait(until: deadline) { return condition(received) }
        }
        return true
    }

    private func signal() {
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if state.withLock({ $0.stopped }) { return }
                continue
            }
            let thread = Thread { [self] in serve(fd) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            guard let (headers, bodyStart) = Self.head(buffer) else {
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return }
                buffer += chunk[0..<count]
                continue
            }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            while buffer.count < bodyStart + length {
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return }
                buffer += chunk[0..<count]
            }
            let request = Received(headers: headers, body: Array(buffer[bodyStart..<(bodyStart + length)]))
            buffer.removeFirst(bodyStart + length)
            let number = state.withLock { state in
                state.received.append(request)
                return state.received.count - 1
            }
            signal()
            let status: Int
            switch behaviour(number) {
            case .close: return
            case .status(let code): status = code
            case .hold(let code):
                changed.lock()
                while !state.withLock({ $0.released }) {
                    if !changed.wait(until: Date(timeIntervalSinceNow: 30)) { break }
                }
                changed.unlock()
                status = code
            }
            let answer = Array("HTTP/1.1 \(status) X\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok".utf8)
            guard answer.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == answer.count else { return }
        }
    }

    /// The head's fields (names lower-cased) and where the body starts, once the head is complete.
    private static func head(_ bytes: [UInt8]) -> ([String: String], Int)? {
        guard bytes.count >= 4, let end = (0...(bytes.count - 4)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }) else {
            return nil
        }
        var headers: [String: String] = [:]
        for line in String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (headers, end + 4)
    }
}
